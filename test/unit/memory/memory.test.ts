import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, promises as fs, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createExtractionScheduler } from '../../../src/memory/extractionScheduler';
import { capIndex, INDEX_FILE, MemoryDir, validateMemoryInput } from '../../../src/memory/memdir';
import { buildMemorySection } from '../../../src/memory/memoryPrompt';
import { resolveMemoryDir, validateMemoryPath } from '../../../src/memory/paths';
import { notesGrowthFor, shouldUpdateSessionMemory } from '../../../src/memory/sessionMemoryPolicy';

const tmp = () => mkdtempSync(join(tmpdir(), 'tl-mem-'));

describe('memory paths', () => {
  const refused: [string, RegExp][] = [
    ['relative/path', /absolute/],
    ['/', /root/],
    ['/etc', /too close/],
    ['C:\\', /drive root/],
    ['\\\\server\\share\\mem', /UNC/],
    ['//server/share', /UNC/],
    ['/home/u/mem\0x', /NUL/],
    ['   ', /empty/],
  ];
  for (const [path, reason] of refused) {
    it(`refuses ${JSON.stringify(path)} with a reason`, () => {
      const r = validateMemoryPath(path);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.reason, reason);
    });
  }

  it('accepts a normal absolute folder and prefers the setting', () => {
    assert.deepEqual(validateMemoryPath('/home/me/notes/'), { ok: true, path: '/home/me/notes' });
    const r = resolveMemoryDir({ setting: '/home/me/notes', globalStorageDir: '/g', canonicalRoot: '/repo' });
    assert.deepEqual(r, { ok: true, dir: '/home/me/notes', source: 'setting' });
  });

  it('keys the default folder on the canonical root, so worktrees share it', () => {
    const a = resolveMemoryDir({ globalStorageDir: '/g', canonicalRoot: '/src/repo' });
    const b = resolveMemoryDir({ globalStorageDir: '/g', canonicalRoot: '/src/repo/' });
    const c = resolveMemoryDir({ globalStorageDir: '/g', canonicalRoot: '/src/other' });
    assert.ok(a.ok && b.ok && c.ok);
    if (a.ok && b.ok && c.ok) {
      assert.equal(a.dir, b.dir);
      assert.notEqual(a.dir, c.dir);
    }
  });

  it('reports a hostile setting instead of falling back silently', () => {
    const r = resolveMemoryDir({ setting: '/', globalStorageDir: '/g', canonicalRoot: '/r' });
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.reason, /memoryDirectory refused/);
  });
});

describe('MemoryDir', () => {
  it('saves typed topic files and keeps the index in line with them', async () => {
    const dir = new MemoryDir(join(tmp(), 'memory'));
    await dir.save({ name: 'user_role', description: 'User is a TypeScript engineer', type: 'user', body: 'Works on AI tooling.' });
    await dir.save({ name: 'feedback_terse', description: 'Prefers terse answers', type: 'feedback', body: 'Skip summaries.\n\n**Why:** reads the diff.' });
    const { valid, invalid } = await dir.list();
    assert.deepEqual(valid.map((m) => m.name), ['feedback_terse', 'user_role']);
    assert.equal(invalid.length, 0);
    const index = await fs.readFile(join(dir.dir, INDEX_FILE), 'utf8');
    assert.match(index, /\[user_role\]\(user_role\.md\) — User is a TypeScript engineer/);
    const got = await dir.get('feedback_terse');
    assert.ok(got && 'type' in got, 'the saved memory reads back as valid');
    assert.equal(got.type, 'feedback');
    assert.equal(await dir.remove('user_role'), true);
    assert.doesNotMatch(await fs.readFile(join(dir.dir, INDEX_FILE), 'utf8'), /user_role/);
  });

  it('lists a file with broken frontmatter as invalid and never drops it', async () => {
    const root = tmp();
    const dir = new MemoryDir(root);
    writeFileSync(join(root, 'broken.md'), '---\nname: [unclosed\n---\nbody');
    writeFileSync(join(root, 'untyped.md'), '---\nname: x\ndescription: y\n---\nbody');
    await dir.save({ name: 'ok', description: 'fine', type: 'project', body: 'b' });
    const { valid, invalid } = await dir.list();
    assert.deepEqual(valid.map((m) => m.name), ['ok']);
    assert.deepEqual(invalid.map((m) => m.file).sort(), ['broken.md', 'untyped.md']);
    await fs.access(join(root, 'broken.md'));
    assert.match(await fs.readFile(join(root, INDEX_FILE), 'utf8'), /broken\.md.*invalid/);
  });

  it('recreates a folder deleted mid-session', async () => {
    const root = join(tmp(), 'memory');
    const dir = new MemoryDir(root);
    await dir.save({ name: 'a', description: 'a', type: 'user', body: 'a' });
    await fs.rm(root, { recursive: true });
    assert.deepEqual(await dir.list(), { valid: [], invalid: [] });
    await dir.save({ name: 'b', description: 'b', type: 'user', body: 'b' });
    assert.deepEqual((await dir.list()).valid.map((m) => m.name), ['b']);
  });

  it('rejects bad input with the reason', () => {
    assert.match(validateMemoryInput({ name: 'Bad Name', description: 'd', type: 'user', body: 'b' }) ?? '', /name/);
    assert.match(validateMemoryInput({ name: 'n', description: 'd', type: 'other' as 'user', body: 'b' }) ?? '', /type/);
    assert.match(validateMemoryInput({ name: 'n', description: 'two\nlines', type: 'user', body: 'b' }) ?? '', /one line/);
  });

  it('loses nothing when two processes save at once', async () => {
    const root = join(tmp(), 'memory');
    const script = join(tmp(), 'saver.mts');
    writeFileSync(
      script,
      `import { MemoryDir } from ${JSON.stringify(join(process.cwd(), 'src/memory/memdir.ts'))};
const [dir, prefix] = process.argv.slice(2);
const m = new MemoryDir(dir!);
for (let i = 0; i < 15; i++) await m.save({ name: prefix + '_' + i, description: 'd' + i, type: 'project', body: 'b' });
`,
    );
    const run = (prefix: string) =>
      new Promise<number>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script, root, prefix], { stdio: 'inherit' });
        child.on('exit', (code) => resolve(code ?? 1));
      });
    assert.deepEqual(await Promise.all([run('w1'), run('w2')]), [0, 0]);
    const index = await fs.readFile(join(root, INDEX_FILE), 'utf8');
    for (const p of ['w1', 'w2']) for (let i = 0; i < 15; i++) assert.ok(index.includes(`[${p}_${i}]`), `${p}_${i} in the index`);
    assert.equal((await new MemoryDir(root).list()).valid.length, 30);
  });
});

describe('index cap', () => {
  it('cuts at 200 lines and 25 KB with a notice', () => {
    const long = Array.from({ length: 250 }, (_, i) => `- line ${i}`).join('\n');
    const r = capIndex(long);
    assert.equal(r.truncated, true);
    assert.match(r.text, /was cut to 200 lines/);
    assert.ok(!r.text.includes('line 200'));
    const wide = Array.from({ length: 100 }, () => 'x'.repeat(400)).join('\n');
    const w = capIndex(wide);
    assert.equal(w.truncated, true);
    assert.ok(Buffer.byteLength(w.text) < 25_500);
    assert.equal(capIndex('- one').truncated, false);
  });

  it('puts the index and the exclusions in the prompt section', () => {
    const s = buildMemorySection('/m', { text: '- [a](a.md) — x', truncated: false });
    assert.match(s, /What not to save/);
    assert.match(s, /\[a\]\(a\.md\)/);
    assert.match(buildMemorySection('/m', undefined), /no memories yet/);
  });

  it('reads an index with no entries as no memories: the next session\'s prompt stays byte for byte the cached one', async () => {
    // An extraction that saved nothing still rebuilds the index, which then holds only its
    // heading; the next `threadline -c` run must not see a different system prompt for it.
    const dir = tmp();
    const memdir = new MemoryDir(dir);
    const before = buildMemorySection(dir, await memdir.loadIndex());
    await memdir.rebuildIndex();
    assert.ok((await memdir.loadIndex())?.text.includes('# Memory index'), 'the empty index file exists');
    assert.equal(buildMemorySection(dir, await memdir.loadIndex()), before);
    writeFileSync(join(dir, 'user_role.md'), '---\nname: user_role\ndescription: A data engineer\ntype: user\n---\nWorks on pipelines.\n');
    await memdir.rebuildIndex();
    assert.match(buildMemorySection(dir, await memdir.loadIndex()), /## Current index[\s\S]*user_role/, 'an entry still shows');
  });
});

describe('extraction scheduler', () => {
  it('runs one at a time and only the latest stashed request as the trailing run', async () => {
    const ran: number[] = [];
    let release: (() => void) | undefined;
    const s = createExtractionScheduler<number>(async (n) => {
      ran.push(n);
      if (n === 1) await new Promise<void>((r) => (release = r));
    });
    s.request(1);
    s.request(2);
    s.request(3);
    assert.equal(s.running, true);
    assert.deepEqual(ran, [1]);
    release!();
    await s.drain();
    assert.deepEqual(ran, [1, 3]);
    assert.equal(s.running, false);
  });

  it('keeps going after a failed run and reports it', async () => {
    const errors: unknown[] = [];
    const ran: number[] = [];
    const s = createExtractionScheduler<number>(async (n) => {
      ran.push(n);
      if (n === 1) throw new Error('fork failed');
    }, (e) => errors.push(e));
    s.request(1);
    s.request(2);
    await s.drain();
    assert.deepEqual(ran, [1, 2]);
    assert.equal(errors.length, 1);
  });
});

describe('session memory policy', () => {
  const base = { tokens: 20_000, unseenTokens: undefined, toolCallsSinceLastUpdate: 0, naturalBreak: false };
  it('waits for 10k tokens before the first update', () => {
    assert.equal(shouldUpdateSessionMemory({ ...base, tokens: 9_999, naturalBreak: true }), false);
    assert.equal(shouldUpdateSessionMemory({ ...base, tokens: 10_000, naturalBreak: true }), true);
  });
  it('needs 5k of growth, and tool calls alone never trigger it', () => {
    assert.equal(shouldUpdateSessionMemory({ ...base, unseenTokens: 4_000, toolCallsSinceLastUpdate: 50 }), false);
    assert.equal(shouldUpdateSessionMemory({ ...base, unseenTokens: 5_000, toolCallsSinceLastUpdate: 10 }), true);
    assert.equal(shouldUpdateSessionMemory({ ...base, unseenTokens: 5_000, toolCallsSinceLastUpdate: 9 }), false);
    assert.equal(shouldUpdateSessionMemory({ ...base, unseenTokens: 5_000, naturalBreak: true }), true);
  });
  it('after the first update, waits until the notes lag by 3/4 of the verbatim tail a notes compaction keeps', () => {
    const lag = notesGrowthFor(40_000);
    assert.equal(lag, 30_000);
    assert.equal(shouldUpdateSessionMemory({ ...base, tokens: 60_000, unseenTokens: 26_000, naturalBreak: true, minGrowth: lag }), false);
    assert.equal(shouldUpdateSessionMemory({ ...base, tokens: 60_000, unseenTokens: 30_000, naturalBreak: true, minGrowth: lag }), true);
    assert.equal(notesGrowthFor(4_000), 5_000, 'never below the seed figure on a small window');
  });
});

describe('memory names are never paths', () => {
  it('refuses to read or delete through a name with a path in it', async () => {
    const { mkdtempSync: mk, writeFileSync: wf, existsSync: ex } = await import('node:fs');
    const { tmpdir: td } = await import('node:os');
    const { join: j } = await import('node:path');
    const root = mk(j(td(), 'tl-memname-'));
    wf(j(root, 'secret.md'), '---\nname: secret\ndescription: x\ntype: user\n---\nsecret');
    const dir = new MemoryDir(j(root, 'memory'));
    assert.equal(await dir.get('../secret'), undefined);
    assert.equal(await dir.remove('../secret'), false);
    assert.ok(ex(j(root, 'secret.md')));
  });
});

describe('memory folder deleted mid-session', () => {
  it('is recreated by the next save, and the index follows', async () => {
    const { mkdtempSync: mk, rmSync: rm, readFileSync: rf } = await import('node:fs');
    const { tmpdir: td } = await import('node:os');
    const { join: j } = await import('node:path');
    const dir = new MemoryDir(j(mk(j(td(), 'tl-memdel-')), 'memory'));
    await dir.save({ name: 'a_one', description: 'first', type: 'user', body: 'x' });
    rm(dir.dir, { recursive: true, force: true });
    assert.deepEqual((await dir.list()).valid, []);
    await dir.save({ name: 'b_two', description: 'second', type: 'project', body: 'y' });
    assert.deepEqual((await dir.list()).valid.map((m) => m.name), ['b_two']);
    assert.match(rf(j(dir.dir, 'MEMORY.md'), 'utf8'), /b_two/);
  });
});
