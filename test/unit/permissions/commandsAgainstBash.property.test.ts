import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { quotingWord } from '../../support/bashWords';
import { fc } from '../../support/fastCheck';
import { BashChecker } from '../../../src/permissions/bash/checker';

// The rules judge the commands the parser finds; a script whose quotes, comments or here-docs the
// parser ends elsewhere than bash runs commands no rule saw (pass 17: `echo $'\\' ; rm x #'`).
// This property builds scripts of three stand-in commands, a, b and c, joined by the shell's
// operators and wrapped in its compound forms, with words from every quoting form, and holds
// the parser to what bash runs: the same commands, as many times, with the same words where the
// checks say they know them. Where the checks call the script misread, it asks, and no more is asked.

const RUNS = Number(process.env.THREADLINE_PROPERTY_RUNS ?? 300);

const checker = new BashChecker(undefined, { cacheSize: 0 });
before(() => checker.ready());
const empty = mkdtempSync(join(tmpdir(), 'tl-commands-'));
after(() => rmSync(empty, { recursive: true, force: true }));

const name = fc.constantFrom('a', 'b', 'c');
const simple = fc.tuple(name, fc.array(quotingWord, { maxLength: 3 })).map(([n, ws]) => [n, ...ws].join(' '));
const sep = fc.constantFrom(' ; ', ' && ', ' | ', '\n', ';', '&&', '|');
const list = (cmd: fc.Arbitrary<string>) => fc.tuple(cmd, fc.array(fc.tuple(sep, cmd), { maxLength: 2 })).map(([first, rest]) => first + rest.map(([s, c]) => s + c).join(''));
const heredocLine = fc.array(fc.oneof(quotingWord, fc.constantFrom('EOF', "'", '"', '\\', '$(b)', '`c`', '#')), { maxLength: 3 }).map((ws) => ws.join(' '));
const compound = fc.letrec<{ cmd: string }>((tie) => ({
  cmd: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: simple },
    list(tie('cmd')).map((l) => `( ${l} )`),
    list(tie('cmd')).map((l) => `{ ${l}; }`),
    fc.tuple(simple, list(tie('cmd'))).map(([s, l]) => `${s} "$(${l})"`),
    fc.tuple(simple, list(tie('cmd'))).map(([s, l]) => `if ${s}; then ${l}; fi`),
    fc.tuple(simple, fc.constantFrom('<<EOF', "<<'EOF'", '<<-EOF', '<<"EOF"'), fc.array(heredocLine, { maxLength: 2 })).map(([s, op, lines]) => `${s} ${op}\n${[...lines, 'EOF'].join('\n')}\n`),
    fc.tuple(simple, quotingWord).map(([s, w]) => `${s} # ${w}`),
    fc.tuple(simple, list(tie('cmd'))).map(([s, l]) => `${s} \`${l.replace(/[`\\$]/g, '')}\``),
    fc.tuple(simple, list(tie('cmd'))).map(([s, l]) => `${s} <(${l})`),
    fc.tuple(quotingWord, list(tie('cmd'))).map(([w, l]) => `case ${w} in *) ${l};; esac`),
    fc.tuple(quotingWord, list(tie('cmd'))).map(([w, l]) => `for i in ${w}; do ${l}; done`),
    fc.tuple(quotingWord, simple).map(([w, s]) => `X=${w} ${s}`),
    simple.map((s) => `! ${s}`),
    fc.tuple(simple, fc.constantFrom('2>/dev/null', '>/dev/null 2>&1', '<&-', '3>&1')).map(([s, r]) => `${s} ${r}`),
    fc.tuple(list(tie('cmd')), fc.constantFrom('2>&1', '>/dev/null')).map(([l, r]) => `{ ${l}; } ${r}`),
    fc.tuple(quotingWord, simple).map(([w, s]) => `[[ ${w} ]] && ${s}`),
    simple.map((s) => `(( 1 )) && ${s}`),
    fc.tuple(simple, quotingWord).map(([s, w]) => `${s} <<< ${w}`),
  ),
})).cmd;
const script = list(compound);

const FIELD = '\x1f';

/**
 * The commands bash runs, each as its words: a, b and c are functions that log themselves, each
 * call to a file of its own (the two sides of a pipe run at once, and printf writes a line at a time).
 */
function bashRuns(source: string): string[][] | undefined {
  const logs = mkdtempSync(join(empty, 'log-'));
  try {
    // Written aside and renamed: a process substitution inside a pipe is not waited for, and a
    // half-written log would read as a command with no name.
    const log = `{ local s f="$TL_LOGS/$BASHPID.$((TL_N++))"; printf -v s '%s${FIELD}' "$FUNCNAME" "$@"; printf '%s' "$s" > "$f.part" && mv "$f.part" "$f"; }`;
    const prelude = `TL_N=0; a() ${log}; b() ${log}; c() ${log}; set -f\n`;
    // `wait`: a process substitution's commands run beside the script and may still be logging.
    const r = spawnSync('bash', ['--noprofile', '--norc', '-c', `${prelude}${source}\nwait`], {
      cwd: empty,
      // HOME is `~` itself: the checks keep a leading `~` as written (rules spell it so), and bash then passes the same.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '~', LC_ALL: 'C.UTF-8', TL_LOGS: logs },
      stdio: 'ignore',
      timeout: 5_000,
    });
    // 2: bash could not parse the script, so it ran nothing past the error.
    if (r.error || r.status === 2 || r.signal) return undefined;
    return readdirSync(logs).filter((f) => !f.endsWith('.part')).map((f) => readFileSync(join(logs, f), 'utf8').split(FIELD).slice(0, -1));
  } finally {
    // A process substitution in a pipe, which `wait` does not wait for, may still be writing its
    // log while the folder is removed (ENOTEMPTY): cleanup of a temporary folder is no result.
    try {
      rmSync(logs, { recursive: true, force: true });
    } catch {
      // left in the temporary folder
    }
  }
}

describe('the commands the checks see are the commands bash runs', () => {
  it('every command bash runs is one the checks judge, with the words it gets', () => {
    let compared = 0;
    fc.assert(
      fc.property(script, (source) => {
        const analysis = checker.analyze(source);
        if ('unavailable' in analysis || analysis.misread.length || analysis.globOptions) return;
        const theirs = bashRuns(source);
        if (theirs === undefined) return;
        // Deny rules judge `runs` unless `unseen` says they cannot see everything; allow rules judge
        // `commands` unless a hazard says none can cover the script. Where neither says so, every
        // command bash runs must be among those judged, with the same words where they are known.
        // (The checks may see more: a command read twice, or one that does not run after all.)
        const views = [analysis.unseen.length ? undefined : analysis.runs, analysis.hazards.length ? undefined : analysis.commands];
        for (const seen of views) {
          if (!seen) continue;
          const named = seen.filter((c) => c.words[0] === undefined || ['a', 'b', 'c'].includes(c.words[0]));
          // A name computed when it runs may be any of a, b, c: such a script is not compared.
          if (named.some((c) => c.words[0] === undefined)) continue;
          const left = [...named];
          for (const ran of theirs) {
            let at = left.findIndex((c) => JSON.stringify(c.words) === JSON.stringify(ran));
            if (at >= 0) compared++;
            else at = left.findIndex((c) => c.words[0] === ran[0] && c.words.includes(undefined));
            assert.ok(at >= 0, `${JSON.stringify(source)}: bash runs ${JSON.stringify(ran)}, which the checks do not see (they see ${JSON.stringify(named.map((c) => c.words))})`);
            left.splice(at, 1);
          }
        }
      }),
      { numRuns: RUNS },
    );
    assert.ok(compared > RUNS / 4, `only ${compared} commands were compared`);
  });
});
