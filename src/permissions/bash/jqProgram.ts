import type { SimpleCommand } from './commands';

// jq is a language too (see scriptTools.ts): its program can read files the command never names.
// `import "x" as $d` reads x.json along the search path, which `-L`, a relative name or a link in
// the workspace leads anywhere; `include`, `modulemeta` read modules; `env` and `$ENV` hold the
// environment. A rule naming jq lets a program run only when it plainly uses none of those.
// yq is the same for YAML, in two programs of one name: mikefarah's, whose expressions `load` any
// file and read `env`, and a Python wrapper that hands its options and program to jq.

/** jq and its ports that read the same programs. */
export const JQS: ReadonlySet<string> = new Set(['jq', 'gojq', 'jaq']);

/** jq's options that only shape how it reads and prints (its long ones without the dashes). */
const JQ_SHORT = 'nrjascCMSeRhVb0';
const JQ_LONG: ReadonlySet<string> = new Set([
  'null-input', 'raw-output', 'raw-output0', 'join-output', 'ascii-output', 'slurp', 'compact-output', 'color-output', 'monochrome-output',
  'sort-keys', 'exit-status', 'raw-input', 'tab', 'seq', 'stream', 'stream-errors', 'unbuffered', 'help', 'version', 'build-configuration',
  'binary', 'args', 'jsonargs', 'nul-output',
]);

/**
 * jq words that read a file the command does not name or the environment: `import`/`include`
 * load a module or a JSON file (`import "x" as $d` reads x.json along the search path, which a
 * relative name, `-L` or a link leads anywhere), `modulemeta` reads a module, `env` and `$ENV`
 * hold the environment's secrets. A keyword in a string or a key asks too. `ENV` is matched as a
 * word of its own: jq reads `$` and the name as two tokens, so `$ ENV` and `$#…\nENV` are `$ENV`
 * (pass 50 H1).
 */
const JQ_FORBIDDEN = /(?<![\w$.@])(import|include|modulemeta|env)(?!\w)|(?<!\w)ENV(?!\w)/;

/** Why a jq command's program may read more than the files it is given; undefined when it plainly does not. */
export function jqDanger(c: SimpleCommand, trusted: number): string | undefined {
  const name = c.words[0]!;
  let program: { text: string; at: number } | undefined;
  let options = true;
  for (let i = 1; i < c.words.length; i++) {
    const w = c.words[i];
    if (w === undefined) return `${name} is given a word computed when it runs, which may be its program`;
    if (!options || w === '-' || !w.startsWith('-')) {
      // The first operand is the program; the rest are files (or, after --args, arguments).
      program ??= { text: w, at: i };
      continue;
    }
    if (w === '--') {
      options = false;
      continue;
    }
    const fromFile = () => `${name} ${w} reads its program from a file, which a rule naming ${name} does not cover`;
    if (w.startsWith('--')) {
      const long = w.slice(2).split('=')[0]!;
      if (JQ_LONG.has(long) && !w.includes('=')) continue;
      if (long === 'from-file') return fromFile();
      if (long === 'indent' && !w.includes('=')) i++;
      else if (['arg', 'argjson', 'slurpfile', 'rawfile'].includes(long) && !w.includes('=')) i += 2;
      // The folder is judged as a file the command reads (pathArgs).
      else if (long === 'library-path') i += w.includes('=') ? 0 : 1;
      else return `${w} is not an option of ${name} known to only shape its output`;
      continue;
    }
    for (let k = 1; k < w.length; k++) {
      const f = w[k]!;
      if (f === 'f') return fromFile();
      if (f === 'L') {
        if (k === w.length - 1) i++;
        break;
      }
      if (!JQ_SHORT.includes(f)) return `-${f} is not an option of ${name} known to only shape its output`;
    }
  }
  if (!program || program.at < trusted) return undefined;
  const hit = JQ_FORBIDDEN.exec(program.text)?.[0];
  if (hit) return `the ${name} program uses ${hit}, by which it reads ${hit === 'env' || hit === 'ENV' ? 'the environment' : 'a file the command does not name'}; a rule naming ${name} does not cover that`;
  return undefined;
}

/** yq options (both programs') that only shape how it reads and prints; `i` edits the files it is given in place. */
const YQ_SHORT = 'CMenNPrv0yYhVi';
const YQ_SHORT_VALUE = 'Iop';
const YQ_LONG: ReadonlySet<string> = new Set([
  'colors', 'no-colors', 'exit-status', 'null-input', 'no-doc', 'prettyPrint', 'unwrapScalar', 'nul-output', 'help', 'version', 'verbose',
  'header-preprocess', 'inplace', 'in-place', 'yaml-output', 'yaml-roundtrip', 'raw-output', 'compact-output', 'slurp', 'sort-keys', 'tab',
  'indentless-lists', 'explicit-start', 'explicit-end',
]);
const YQ_LONG_VALUE: ReadonlySet<string> = new Set(['indent', 'output-format', 'input-format', 'width']);
/** mikefarah's subcommands, named before the expression. */
const YQ_COMMANDS: ReadonlySet<string> = new Set(['eval', 'e', 'eval-all', 'ea']);

/** yq words that read a file or the environment (jq's, for the wrapper, and mikefarah's own), or evaluate computed text. */
const YQ_FORBIDDEN = /(?<![\w$.@])(load\w*|env|strenv|envsubst|eval|import|include|modulemeta|system)(?!\w)|(?<!\w)ENV(?!\w)/;

/** Why a yq command's expression may read more than the files it is given; undefined when it plainly does not. */
export function yqDanger(c: SimpleCommand, trusted: number): string | undefined {
  const name = c.words[0]!;
  const expressions: { text: string; at: number }[] = [];
  let program = false;
  let options = true;
  for (let i = 1; i < c.words.length; i++) {
    const w = c.words[i];
    if (w === undefined) return `${name} is given a word computed when it runs, which may be its expression`;
    if (!options || w === '-' || !w.startsWith('-')) {
      if (i === 1 && YQ_COMMANDS.has(w)) continue;
      // The first operand is the expression (unless --expression gave it); the rest are files.
      if (!program) expressions.push({ text: w, at: i });
      program = true;
      continue;
    }
    if (w === '--') {
      options = false;
      continue;
    }
    if (w.startsWith('--')) {
      const [long, value] = [w.slice(2).split('=')[0]!, w.includes('=')];
      if (YQ_LONG.has(long) && !value) continue;
      if (YQ_LONG_VALUE.has(long)) i += value ? 0 : 1;
      else if (long === 'expression') {
        const text = value ? w.slice(w.indexOf('=') + 1) : c.words[++i];
        if (text === undefined) return `${name} is given a word computed when it runs, which may be its expression`;
        expressions.push({ text, at: value ? i : i - 1 });
        program = true;
      } else return `${w} is not an option of ${name} known to only shape its output`;
      continue;
    }
    for (let k = 1; k < w.length; k++) {
      const f = w[k]!;
      if (YQ_SHORT_VALUE.includes(f)) {
        if (k === w.length - 1) i++;
        break;
      }
      if (!YQ_SHORT.includes(f)) return `-${f} is not an option of ${name} known to only shape its output`;
    }
  }
  for (const e of expressions) {
    if (e.at < trusted) continue;
    const hit = YQ_FORBIDDEN.exec(e.text)?.[0];
    if (hit) {
      const what = hit === 'eval' ? 'evaluates text it computes' : /env|ENV/.test(hit) ? 'reads the environment' : hit === 'system' ? 'runs a program' : 'reads a file the command does not name';
      return `the ${name} expression uses ${hit}, by which it ${what}; a rule naming ${name} does not cover that`;
    }
  }
  return undefined;
}
