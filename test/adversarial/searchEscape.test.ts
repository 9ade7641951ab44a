// Finding 13 (hole 1 of the second pass): Grep and Glob followed a committed symlinked folder out of
// the workspace. A clone needs nothing but `notes -> ~` (or `vendored -> ../../../..`, which
// reaches /) for a search through the link to list ~/.ssh/id_rsa and return its contents with no
// grant, while Read refused the same file and a user's Read(~/.ssh/**) deny rule held for Read only.
// Files under a linked folder were judged by the path that led to them, not where they are.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Permissions } from '../../src/permissions/permissions';
import { createToolRegistry, createTools } from '../../src/tools/builtin';
import { memoryForkPermission } from '../../src/memory/forkPermissions';
import type { Tool } from '../../src/tools/types';
import { startStandin, type Standin } from '../standin/server';
import { createStandinAgent } from '../support/standinAgent';
import { tempDir } from './support';

const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA-the-user-key\n-----END OPENSSH PRIVATE KEY-----\n';
/** Whether a search's output lists the key file or holds its contents (its notes and echo of the input aside). */
function leaks(content: string): boolean {
  const listed = content.split('\n').filter((l) => l && !l.startsWith('(') && !l.startsWith('No '));
  return /the-user-key/.test(content) || listed.some((l) => /\.ssh\/id_rsa/.test(l));
}

/** A fake home with a key, and a cloned repository whose folders link into it (and to /). */
function hostileClone() {
  const base = tempDir('escape');
  const home = join(base, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), KEY);
  writeFileSync(join(home, 'notes.md'), 'the user private notes: BEGIN\n');
  const ws = join(base, 'repo');
  mkdirSync(join(ws, 'src', 'deep'), { recursive: true });
  writeFileSync(join(ws, 'src', 'main.ts'), 'export const BEGIN = 1;\n');
  symlinkSync(home, join(ws, 'notes'));
  // Enough `..` to reach / from the workspace, as a committed link can.
  symlinkSync('../'.repeat(relative('/', ws).split('/').length + 1), join(ws, 'vendored'));
  symlinkSync(home, join(ws, 'src', 'deep', 'more'));
  // Climbing out by a relative link, to the folder that holds the home (walking / itself is
  // left to the permission check below: a test must not walk the machine).
  symlinkSync('..', join(ws, 'up'));
  symlinkSync(join(home, '.ssh', 'id_rsa'), join(ws, 'src', 'key.pem'));
  return { home, ws, keyPath: join(home, '.ssh', 'id_rsa') };
}

function engine(ws: string, home: string, deny: string[] = []) {
  const permissions = new Permissions({ cwd: ws, home, rules: () => ({ allow: [], ask: [], deny }), trusted: () => true });
  const tools = createTools({ searchScope: permissions });
  const tool = (name: string) => tools.find((t) => t.name === name) as Tool;
  const run = async (name: string, input: unknown) => {
    const t = tool(name);
    const parsed = t.parse(input);
    assert.ok(parsed.ok, JSON.stringify(input));
    return t.call(parsed.value, { cwd: ws, signal: new AbortController().signal });
  };
  return { permissions, tool, run, decide: (name: string, input: unknown) => permissions.decide({ tool: tool(name), input }).behavior };
}

// Every spelling of "search through the link": the pattern, the path, or a bare ** over the root.
const THROUGH_LINK: Array<[string, Record<string, unknown>]> = [
  ['Glob', { pattern: 'notes/**' }],
  ['Glob', { pattern: 'notes/.ssh/*' }],
  ['Glob', { pattern: '**', path: 'notes' }],
  ['Glob', { pattern: 'up/**/id_rsa' }],
  ['Glob', { pattern: 'src/deep/more/**' }],
  ['Grep', { pattern: 'PRIVATE KEY', glob: 'notes/**', output_mode: 'content' }],
  ['Grep', { pattern: 'PRIVATE KEY', path: 'notes', output_mode: 'content' }],
  ['Grep', { pattern: 'PRIVATE KEY', path: 'notes/.ssh/id_rsa', output_mode: 'content' }],
  ['Grep', { pattern: 'PRIVATE', glob: 'src/deep/more/.ssh/*', output_mode: 'content' }],
  ['Grep', { pattern: 'PRIVATE', glob: 'up/home/**', output_mode: 'content' }],
];
/** Reaching / itself: only the permission decision is checked (running them would walk the machine). */
const TO_ROOT: Array<[string, Record<string, unknown>]> = [
  ['Glob', { pattern: 'vendored/**/id_rsa' }],
  ['Glob', { pattern: '**', path: 'vendored' }],
  ['Grep', { pattern: 'PRIVATE KEY', glob: 'vendored/**' }],
];

describe('finding 13: a search follows a committed symlinked folder out of the workspace', () => {
  it('a search through the link is never allowed without asking (Read of the same file asks too)', () => {
    const { ws, home, keyPath } = hostileClone();
    const e = engine(ws, home);
    assert.notEqual(e.decide('Read', { file_path: keyPath }), 'allow');
    for (const [name, input] of [...THROUGH_LINK, ...TO_ROOT]) assert.notEqual(e.decide(name, input), 'allow', `${name} ${JSON.stringify(input)} ran without asking`);
  });

  it('a search of the whole workspace (plain **) lists and returns nothing from beyond the links', async () => {
    const { ws, home } = hostileClone();
    const e = engine(ws, home);
    for (const [name, input] of [
      ['Glob', { pattern: '**' }],
      ['Glob', { pattern: '**/*' }],
      ['Glob', { pattern: '**/id_rsa' }],
      ['Glob', { pattern: '**/*.pem' }],
      ['Grep', { pattern: 'PRIVATE KEY', output_mode: 'content' }],
      ['Grep', { pattern: 'PRIVATE|BEGIN', output_mode: 'files_with_matches' }],
      ['Grep', { pattern: 'user-key', glob: '**/*', output_mode: 'count' }],
    ] as Array<[string, Record<string, unknown>]>) {
      assert.equal(e.decide(name, input), 'allow', `${name} ${JSON.stringify(input)}`);
      const r = await e.run(name, input);
      assert.ok(!leaks(r.content), `${name} ${JSON.stringify(input)}:\n${r.content}`);
    }
    // What is really in the workspace is still found.
    assert.match((await e.run('Grep', { pattern: 'BEGIN', output_mode: 'files_with_matches' })).content, /src\/main\.ts/);
  });

  it("a user's Read(~/.ssh/**) deny rule hides the key from every search, even one the user let through", async () => {
    const { ws, home } = hostileClone();
    const e = engine(ws, home, ['Read(~/.ssh/**)']);
    for (const [name, input] of THROUGH_LINK) {
      // Whatever the answer to the prompt, the results never hold the key.
      const r = await e.run(name, input);
      assert.ok(!leaks(r.content), `${name} ${JSON.stringify(input)}:\n${r.content}`);
    }
  });

  it('a background agent confined to its folder may not search through a link out of it', async () => {
    const { home } = hostileClone();
    const memdir = join(tempDir('memdir'), 'memory');
    mkdirSync(memdir);
    writeFileSync(join(memdir, 'user.md'), '---\nname: user\n---\nprefers tabs\n');
    symlinkSync(home, join(memdir, 'notes'));
    const check = memoryForkPermission(memdir, memdir);
    const tools = createTools();
    for (const [name, input] of [
      ['Glob', { pattern: 'notes/**', path: memdir }],
      ['Grep', { pattern: 'PRIVATE', glob: 'notes/**', path: memdir, output_mode: 'content' }],
    ] as Array<[string, Record<string, unknown>]>) {
      const t = tools.find((x) => x.name === name)!;
      const parsed = t.parse(input);
      assert.ok(parsed.ok);
      const verdict = check(t, parsed.value);
      // Refused, or, where allowed, nothing from beyond the link in the result.
      if (!verdict.allowed) continue;
      const r = await t.call(parsed.value, { cwd: memdir, signal: new AbortController().signal });
      assert.ok(!leaks(r.content), `${name} ${JSON.stringify(input)}:\n${r.content}`);
    }
  });

  describe('through the agent, headless (the CLI)', () => {
    let standin: Standin;
    before(async () => {
      standin = await startStandin();
    });
    after(async () => {
      await standin.close();
    });

    it('the model asks for the key through the link: the denial says why, and no request carries the key', async () => {
      const { ws, home } = hostileClone();
      // Wired as the CLI wires it: the permission engine is the searches' scope.
      const permissions = new Permissions({ cwd: ws, home, rules: () => ({ allow: [], ask: [], deny: [] }), trusted: () => true, headless: true });
      const { agent } = createStandinAgent({ url: standin.url, cwd: ws, headless: true, extra: { permissions, tools: createToolRegistry({ searchScope: permissions }) } });
      standin.enqueue(
        { content: [{ type: 'tool_use', name: 'Grep', input: { pattern: 'PRIVATE KEY', glob: 'notes/**', output_mode: 'content' } }, { type: 'tool_use', name: 'Glob', input: { pattern: 'vendored/**/.ssh/id_rsa' } }] },
        { content: [{ type: 'tool_use', name: 'Grep', input: { pattern: 'PRIVATE KEY', output_mode: 'content' } }] },
        { content: [{ type: 'text', text: 'nothing found' }] },
      );
      await agent.submit('find any private keys');
      const sent = JSON.stringify(standin.requests.map((r) => r.body));
      assert.doesNotMatch(sent, /the-user-key/);
      assert.match(sent, /outside the workspace/);
    });
  });
});
