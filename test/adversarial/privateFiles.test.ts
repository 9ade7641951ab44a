// Finding 17 (hole 14 of the second pass): memory files written by the background agent were 0644
// in a 0755 folder (its Write tool gives a new file what an editor would), while transcripts and
// MEMORY.md were 0600: what the agent learnt about the user was readable by every account on the
// machine. One rule in the file-system gate now decides: under a folder that holds private data
// (memory, sessions, session notes) every file is 0600 and every folder 0700, whoever writes it.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTools } from '../../src/tools/builtin';
import { runCli } from '../../src/cli/cli';
import { MemoryDir } from '../../src/memory/memdir';
import { cliSessionsDir } from '../../src/sessions/paths';
import { SessionStore } from '../../src/sessions/sessionStore';
import { createStandinAgent } from '../support/standinAgent';
import { startStandin, type Standin } from '../standin/server';
import { tempDir } from './support';

const mode = (p: string) => statSync(p).mode & 0o777;

/** Every file and folder under `dir` (itself included) with a mode other than 0600 / 0700. */
function open(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (mode(d) !== 0o700) out.push(`${d} ${mode(d).toString(8)}`);
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && mode(p) !== 0o600) out.push(`${p} ${mode(p).toString(8)}`);
    }
  };
  walk(dir);
  return out;
}

const memoryFile = (name: string) => `---\nname: ${name}\ndescription: Prefers terse answers\ntype: feedback\n---\nSkip summaries.\n`;

describe('finding 17: private data readable by every account', () => {
  let umask: number;
  let standin: Standin;
  before(async () => {
    // What most systems default to: files 0644 and folders 0755 unless the writer says otherwise.
    umask = process.umask(0o022);
    standin = await startStandin();
  });
  after(async () => {
    process.umask(umask);
    await standin.close();
  });

  it('the memory extraction fork writes with its Write tool: 0600 files in a 0700 folder', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-adv-mem-'));
    const dir = join(mkdtempSync(join(tmpdir(), 'tl-adv-memdir-')), 'memory');
    const { agent } = createStandinAgent({ url: standin.url, cwd, settings: { model: 'standin-test-model', contextWindow: 60_000 }, headless: true, extra: { memory: { dir, enabled: () => true } } });
    standin.enqueue(
      { content: [{ type: 'text', text: 'Here is the short answer.' }] },
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(dir, 'feedback_terse.md'), content: memoryFile('feedback_terse') } }] },
    );
    await agent.submit("Don't write summaries at the end, I read the diff.");
    await agent.drain();
    assert.deepEqual((await new MemoryDir(dir).list()).valid.map((m) => m.name), ['feedback_terse']);
    assert.deepEqual(open(dir), []);
  });

  it('a memory folder an older version left open is closed at the next write; Edit and Write keep to the rule', async () => {
    const dir = join(tempDir('memold'), 'memory');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'old.md'), memoryFile('old'), { mode: 0o644 });
    const memdir = new MemoryDir(dir);
    const tools = createTools();
    const call = async (name: string, input: unknown) => {
      const t = tools.find((x) => x.name === name)!;
      const parsed = t.parse(input);
      assert.ok(parsed.ok);
      const r = await t.call(parsed.value, { cwd: dir, signal: new AbortController().signal });
      assert.notEqual(r.isError, true, r.content);
    };
    await call('Write', { file_path: join(dir, 'topic', 'new.md'), content: memoryFile('new') });
    await call('Edit', { file_path: join(dir, 'old.md'), old_string: 'Skip summaries.', new_string: 'Skip all summaries.' });
    await call('Edit', { file_path: join(dir, 'made.md'), old_string: '', new_string: memoryFile('made') });
    await memdir.rebuildIndex();
    assert.deepEqual(open(dir).filter((l) => !l.includes('/.lock')), []);
  });

  it('sessions: transcripts, the index, drafts, the trash and torn lines kept aside', async () => {
    const dir = join(tempDir('sessions'), 'sessions');
    const store = new SessionStore(dir);
    await store.append('s1', [{ t: 'meta', v: 1, id: 's1', createdAt: 1, cwd: '/w', model: 'm' }]);
    await store.updateIndex({ id: 's1', title: 't', createdAt: 1, updatedAt: 1, model: 'm', messageCount: 0, tokens: 0, cwd: '/w' });
    writeFileSync(join(dir, 's1.jsonl'), '{"t":"meta","v":1,"id":"s1","createdAt":1,"cwd":"/w","model":"m"}\n{"t":"ti', { flag: 'w' });
    await store.append('s1', [{ t: 'title', title: 'x' }]);
    await store.delete('s1');
    assert.deepEqual(open(dir), []);
  });

  it('the CLI: everything under its sessions folder (transcript, notes, index) is private', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-adv-cli-'));
    const stateDir = mkdtempSync(join(tmpdir(), 'tl-adv-state-'));
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0' };
    standin.enqueue({ content: [{ type: 'text', text: 'hello' }] });
    const code = await runCli(['-p', 'hi', '--model', 'claude-sonnet-4-6'], { io: { out: () => undefined, err: () => undefined }, env, cwd });
    assert.equal(code, 0);
    const dir = cliSessionsDir(cwd, env);
    assert.ok(readdirSync(dir).some((n) => n.endsWith('.jsonl')));
    assert.deepEqual(open(dir), []);
  });

  it('the CLI: its state folder, made on first use, is private from the top (other users cannot list the projects in it)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-adv-cli-'));
    const stateDir = join(mkdtempSync(join(tmpdir(), 'tl-adv-home-')), 'state', 'threadline');
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0' };
    standin.enqueue({ content: [{ type: 'text', text: 'hello' }] });
    const code = await runCli(['-p', 'hi', '--model', 'claude-sonnet-4-6'], { io: { out: () => undefined, err: () => undefined }, env, cwd });
    assert.equal(code, 0);
    assert.deepEqual(open(stateDir), []);
  });
});
