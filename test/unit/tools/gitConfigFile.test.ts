import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { configNames, parseGitConfig } from '../../../src/tools/gitConfigFile';

const dir = mkdtempSync(join(tmpdir(), 'tl-gitcfg-'));
let n = 0;

/** What git itself reads from a config text: its names and its include paths, or undefined when it rejects the file. */
function gitReads(text: string): { names: string[]; includes: string[] } | undefined {
  const file = join(dir, `c${n++}`);
  writeFileSync(file, text);
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir };
  const names = spawnSync('git', ['config', '--file', file, '-z', '--name-only', '--list'], { env, encoding: 'utf8' });
  if (names.status !== 0) return undefined;
  const inc = spawnSync('git', ['config', '--file', file, '-z', '--get-regexp', '^include(if\\..*)?\\.path$'], { env, encoding: 'utf8' });
  const includes = inc.status === 0 ? inc.stdout.split('\0').filter((e) => e.includes('\n')).map((e) => e.slice(e.indexOf('\n') + 1)) : [];
  return { names: names.stdout.split('\0').filter(Boolean), includes };
}

function agrees(text: string): void {
  const git = gitReads(text);
  const ours = parseGitConfig(text);
  if (!git) {
    assert.equal(ours.error, true, `git rejects ${JSON.stringify(text)}; so must we`);
    return;
  }
  assert.equal(ours.error, false, `git reads ${JSON.stringify(text)}`);
  assert.deepEqual(ours.entries.map((e) => e.name), git.names, JSON.stringify(text));
  const inc = configNames(text).includes;
  for (const path of git.includes.filter(Boolean)) assert.ok(inc.includes(path), `include ${JSON.stringify(path)} of ${JSON.stringify(text)} (ours: ${JSON.stringify(inc)})`);
}

describe('reading a git config file as git does', () => {
  it('decodes include paths with escapes, continuations, quotes and comments as git does', () => {
    for (const text of [
      '[include]\n\tpath = "evil\\tcfg"\n',
      '[include]\n\tpath = evil\\\ncfg\n',
      '[include]\n\tpath = "x\\ny"\n',
      '[include]\n\tpath = a\\\\b\n',
      '[include]\n\tpath = a\\"b\n',
      '[include]\n\tpath = a b\tc  # comment\n',
      '[include]\n\tpath = "a ; b" ; c\n',
      '[include]\r\n\tpath = crlf.cfg\r\n',
      '[include] path = same-line.cfg\n',
      '[includeIf "gitdir:/x/"]\npath=cond.cfg\n',
      '[include]\n\tpath = end-backslash\\',
      '[include]\npath\n',
      '\uFEFF[include]\npath = bom.cfg\n',
      '[include]\n\tpath = "unterminated\n',
      '[include]\n\tpath = bad\\q\n',
    ]) agrees(text);
  });

  it('reads section names as git does: quoted, the old dotted spelling, any case, keys on the header line', () => {
    for (const text of [
      '[FILTER "X y"] clean = a\n[diff.Old]\n textconv=b\n',
      '[filter "a\\"b"]\nclean = x\n',
      '[filter "a\\\\b"]\nclean = x\n',
      '[filter   "sp"]\nclean = x\n',
      '[filter\t"tab"]\nclean = x\n',
      '[trailer "t"]\ncmd = x\ncommand=y\n',
      '[a.b.c]\nk = v\n',
      '[]\nk = v\n',
      '[core]\n# c\n; c\n  k\n',
      'k = before any section\n',
      '[core]\nkey-with-dash = 1\n',
      '[core]\n1key = 1\n',
      '[s "no end]\nk = v\n',
      '[s]k=v\n[t]\n',
    ]) agrees(text);
  });

  it('agrees with git on random texts built from the characters that matter', () => {
    // A small seeded generator: the same texts on every run, so a failure can be replayed.
    let seed = 0x5eed;
    const rand = (k: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % k;
    };
    const pick = <T>(xs: readonly T[]) => xs[rand(xs.length)]!;
    const headers = ['[include]', '[includeIf "gitdir:/x/"]', '[filter "x"]', '[filter "a\\"b"]', '[a.B]', '[s  "q"]', '[bad', ''];
    const keys = ['path', 'clean', 'Key-1', '1bad', ''];
    const seps = [' = ', '=', '\t=\t', '', ' '];
    const bits = ['a', 'b/c', '"', '\\t', '\\n', '\\\n', '\\\\', '\\"', ' ', '\t', '#', ';', 'x y', '\\q', '\r'];
    let read = 0;
    let named = 0;
    for (let i = 0; i < 400; i++) {
      let text = '';
      for (let h = 1 + rand(2); h > 0; h--) {
        text += `${pick(headers)}${pick(['\n', ' ', '\r\n'])}`;
        for (let l = 1 + rand(3); l > 0; l--) {
          text += `${pick(['', '\t', ' '])}${pick(keys)}${pick(seps)}`;
          for (let b = rand(6); b > 0; b--) text += pick(bits);
          text += pick(['\n', '\r\n', '']);
        }
      }
      agrees(text);
      const ours = parseGitConfig(text);
      if (!ours.error) read++;
      if (!ours.error && ours.entries.length) named++;
    }
    // The texts must exercise both sides: files git reads with names in them, and files it rejects.
    assert.ok(named > 50 && read < 380, `read ${read}, with names ${named}`);
  });
});
