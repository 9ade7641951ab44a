import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { ContextService } from '../../../src/context/contextService';
import { defaultManagedRoot, formatInstructions, loadInstructions } from '../../../src/context/instructions';
import { testHost } from '../../support/host';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tl-hier-'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

describe('instruction hierarchy as the reference reads it', () => {
  it('names the reference CLI\'s managed folders per platform', () => {
    assert.equal(defaultManagedRoot('linux'), '/etc/claude-code');
    assert.equal(defaultManagedRoot('darwin'), '/Library/Application Support/ClaudeCode');
    assert.equal(defaultManagedRoot('win32'), 'C:\\Program Files\\ClaudeCode');
  });

  it('reads the managed CLAUDE.md and managed rules first, then the user\'s, then every folder from the root down', async () => {
    const root = tree({
      'etc/claude-code/CLAUDE.md': 'managed text',
      'etc/claude-code/.claude/rules/policy.md': 'managed rule text',
      'etc/claude-code/.claude/rules/scoped.md': '---\npaths: ["**/*.sql"]\n---\nmanaged sql rule',
      'home/.claude/CLAUDE.md': 'user text',
      'home/.claude/rules/style.md': 'user rule text',
      'CLAUDE.md': 'filesystem root text',
      'work/CLAUDE.md': 'team text above several repos',
      'work/.claude/CLAUDE.md': 'team dot-claude text',
      'work/CLAUDE.local.md': 'team local text',
      'work/repo/CLAUDE.md': 'repo text',
      'work/repo/src/CLAUDE.md': 'cwd text',
    });
    const set = await loadInstructions({
      cwd: join(root, 'work/repo/src'),
      projectRoot: join(root, 'work/repo'),
      home: join(root, 'home'),
      managedRoot: join(root, 'etc/claude-code'),
      filesystemRoot: root,
    });
    assert.deepEqual(
      set.files.map((f) => [f.kind, f.content]),
      [
        ['managed', 'managed text'],
        ['managed', 'managed rule text'],
        ['user', 'user text'],
        ['user', 'user rule text'],
        ['project', 'filesystem root text'],
        ['project', 'team text above several repos'],
        ['project', 'team dot-claude text'],
        ['local', 'team local text'],
        ['project', 'repo text'],
        ['project', 'cwd text'],
      ],
    );
    assert.deepEqual(set.conditional.map((f) => f.content), ['managed sql rule']);
    const report = new Map(set.report.map((r) => [r.path, r]));
    assert.match(report.get(join(root, 'etc/claude-code/CLAUDE.md'))!.why, /managed/);
    assert.match(report.get(join(root, 'work/CLAUDE.md'))!.why, /above the project/);
    assert.match(report.get(join(root, 'work/repo/src/CLAUDE.md'))!.why, /working folder/);
    assert.match(formatInstructions(set.files)!, /team text above several repos/);
  });

  it('walks up outside a repository too', async () => {
    const root = tree({ 'a/CLAUDE.md': 'a', 'a/b/.claude/CLAUDE.md': 'b', 'a/b/c/CLAUDE.local.md': 'c' });
    const set = await loadInstructions({ cwd: join(root, 'a/b/c'), home: join(root, 'home'), managedRoot: null, filesystemRoot: root });
    assert.deepEqual(set.files.map((f) => f.content), ['a', 'b', 'c']);
  });

  it('an untrusted folder gets the managed and user files only; every folder\'s files are reported as withheld', async () => {
    const root = tree({ 'm/CLAUDE.md': 'managed', 'home/.claude/CLAUDE.md': 'user', 'up/CLAUDE.md': 'above', 'up/ws/CLAUDE.md': 'ws', 'up/ws/CLAUDE.local.md': 'local' });
    const set = await loadInstructions({ cwd: join(root, 'up/ws'), home: join(root, 'home'), managedRoot: join(root, 'm'), filesystemRoot: root, trusted: false });
    assert.deepEqual(set.files.map((f) => f.content), ['managed', 'user']);
    assert.deepEqual(
      set.report.filter((r) => r.reason === 'untrusted-workspace').map((r) => r.path),
      [join(root, 'up/CLAUDE.md'), join(root, 'up/ws/CLAUDE.md'), join(root, 'up/ws/CLAUDE.local.md')],
    );
  });

  it('ContextService reads the managed folder by default path and re-reads after clear()', async () => {
    const root = tree({ 'managed/CLAUDE.md': 'v1', 'ws/CLAUDE.md': 'ws' });
    const svc = new ContextService({ cwd: join(root, 'ws'), home: join(root, 'home'), managedRoot: join(root, 'managed'), filesystemRoot: root, host: testHost() });
    assert.match((await svc.reminders())[0]!.text, /v1/);
    writeFileSync(join(root, 'managed/CLAUDE.md'), 'v2');
    assert.match((await svc.reminders())[0]!.text, /v1/, 'memoised within a session');
    svc.rereadInstructions();
    assert.match((await svc.reminders())[0]!.text, /v2/);
  });
});
