import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../../src/cli/cli';
import { loadInstructions } from '../../../src/context/instructions';
import { MemoryDir } from '../../../src/memory/memdir';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

/** A file whose frontmatter, if evaluated, leaves a marker file behind. */
function evil(marker: string, language = 'js'): string {
  return `---${language}\n{ name: (require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'), 'evil'), description: 'x', type: 'user', paths: ['**'] }\n---\nSkip summaries.\n`;
}

function fixture() {
  const root = mkdtempSync(join(tmpdir(), 'tl-fmjs-'));
  const dir = join(root, 'memory');
  mkdirSync(dir, { recursive: true });
  const marker = join(root, 'MARKER');
  return { root, dir, marker };
}

describe('frontmatter never runs code', () => {
  for (const language of ['js', 'javascript', 'JS', ' javascript ']) {
    it(`a ---${language.trim()} memory file is listed as invalid, not run`, async () => {
      const { dir, marker } = fixture();
      writeFileSync(join(dir, 'evil.md'), evil(marker, language));
      const { valid, invalid } = await new MemoryDir(dir).list();
      assert.equal(existsSync(marker), false, 'the frontmatter ran');
      assert.equal(valid.length, 0);
      assert.match(invalid[0]!.reason, /not read|never run/);
    });
  }

  it('rebuilding and loading the index does not run it', async () => {
    const { dir, marker } = fixture();
    writeFileSync(join(dir, 'evil.md'), evil(marker));
    writeFileSync(join(dir, 'MEMORY.md'), evil(marker));
    const memdir = new MemoryDir(dir);
    assert.ok(await memdir.loadIndex());
    await memdir.rebuildIndex();
    assert.ok((await memdir.loadIndex())!.text.includes('evil.md'), 'the invalid file is still listed in the index');
    assert.equal(existsSync(marker), false);
  });

  it('`threadline memory list` does not run it', async () => {
    const { root, marker } = fixture();
    const memoryDir = join(root, 'cli-memory');
    mkdirSync(memoryDir);
    writeFileSync(join(memoryDir, 'evil.md'), evil(marker));
    let out = '';
    const code = await runCli(['memory', 'list', '--json'], { io: { out: (t) => (out += t), err: () => undefined }, env: { THREADLINE_MEMORY_DIR: memoryDir, THREADLINE_STATE_DIR: root }, cwd: root });
    assert.equal(code, 0);
    assert.equal((JSON.parse(out) as { invalid: unknown[] }).invalid.length, 1);
    assert.equal(existsSync(marker), false);
  });

  it('the extraction agent runs over it (and writes another) without running either', async () => {
    const { root, dir, marker } = fixture();
    writeFileSync(join(dir, 'evil.md'), evil(marker));
    const marker2 = join(root, 'MARKER2');
    const cwd = mkdtempSync(join(tmpdir(), 'tl-fmjs-cwd-'));
    const { agent } = createStandinAgent({ url: standin.url, cwd, settings: { model: 'standin-test-model' }, headless: true, extra: { memory: { dir, enabled: () => true } } });
    standin.enqueue(
      { content: [{ type: 'text', text: 'An answer.' }] },
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(dir, 'second.md'), content: evil(marker2) } }] },
    );
    await agent.submit('I prefer terse answers.');
    await agent.drain();
    assert.equal(standin.requests.length, 2, 'the extraction fork ran (one request: its write ends it)');
    assert.equal(existsSync(marker), false);
    assert.equal(existsSync(marker2), false);
  });

  it('a ---js rule or CLAUDE.md is not run when instructions load', async () => {
    const { root, marker } = fixture();
    const cwd = join(root, 'project');
    mkdirSync(join(cwd, '.claude', 'rules'), { recursive: true });
    writeFileSync(join(cwd, 'CLAUDE.md'), evil(marker));
    writeFileSync(join(cwd, '.claude', 'rules', 'evil.md'), evil(`${marker}-rule`));
    const set = await loadInstructions({ cwd, home: join(root, 'home'), managedRoot: join(root, 'managed'), filesystemRoot: root });
    assert.equal(existsSync(marker), false);
    assert.equal(existsSync(`${marker}-rule`), false);
    const rule = set.report.find((r) => r.path.endsWith('evil.md'))!;
    // As in the reference, a rule whose frontmatter cannot be read has no condition (its code is text, never run).
    assert.equal(rule.status, 'included');
    assert.match(rule.warning ?? '', /applies everywhere/);
  });
});
