import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../../src/cli/cli';
import { ContextService } from '../../../src/context/contextService';
import { formatInstructions, loadInstructions } from '../../../src/context/instructions';
import { INSTRUCTION_BUDGET_TOKENS } from '../../../src/context/instructionBudget';
import { estimateTokens } from '../../../src/conversation/tokens';
import { testHost } from '../../support/host';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tl-hard-'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

const base = (root: string) => ({ home: join(root, 'home'), managedRoot: null, filesystemRoot: join(root, 'ws') });

describe('instruction files outside the project ask first, judged by real path', () => {
  it('a symlinked CLAUDE.md pointing at a private file asks once; denied, it is not read', async () => {
    const root = tree({ 'home/secrets/token.md': 'SECRET-TOKEN', 'ws/repo/README.md': 'x' });
    const repo = join(root, 'ws/repo');
    symlinkSync(join(root, 'home/secrets/token.md'), join(repo, 'CLAUDE.md'));
    const asked: string[] = [];
    const set = await loadInstructions({ cwd: repo, projectRoot: repo, ...base(root), approveExternal: async (p) => (asked.push(p), false) });
    assert.deepEqual(asked, [join(root, 'home/secrets/token.md')]);
    assert.doesNotMatch(formatInstructions(set.files) ?? '', /SECRET-TOKEN/);
    const entry = set.report.find((r) => r.path === join(repo, 'CLAUDE.md'))!;
    assert.equal(entry.reason, 'external-not-approved');
    assert.equal(entry.realPath, join(root, 'home/secrets/token.md'));
    const ok = await loadInstructions({ cwd: repo, projectRoot: repo, ...base(root), approveExternal: async () => true });
    assert.match(formatInstructions(ok.files)!, /SECRET-TOKEN/);
  });

  it('an @~/ include, an absolute include and an include through an inside symlink all ask', async () => {
    const root = tree({ 'home/private.md': 'PRIVATE-A', 'elsewhere/b.md': 'PRIVATE-B', 'elsewhere/c.md': 'PRIVATE-C' });
    const repo = join(root, 'ws/repo');
    mkdirSync(repo, { recursive: true });
    symlinkSync(join(root, 'elsewhere'), join(repo, 'docs'));
    writeFileSync(join(repo, 'CLAUDE.md'), `See @~/private.md and @${join(root, 'elsewhere/b.md')} and @./docs/c.md.`);
    const asked: string[] = [];
    const set = await loadInstructions({ cwd: repo, projectRoot: repo, ...base(root), approveExternal: async (p) => (asked.push(p), false) });
    assert.deepEqual(asked.sort(), [join(root, 'elsewhere/b.md'), join(root, 'elsewhere/c.md'), join(root, 'home/private.md')].sort());
    assert.doesNotMatch(formatInstructions(set.files)!, /PRIVATE/);
  });

  it('the user\'s own files may include from home without asking', async () => {
    const root = tree({ 'home/.claude/CLAUDE.md': 'user @~/dotfiles/claude.md', 'home/dotfiles/claude.md': 'FROM DOTFILES' });
    const set = await loadInstructions({ cwd: join(root, 'ws'), ...base(root), approveExternal: async () => assert.fail('must not ask') });
    assert.match(formatInstructions(set.files)!, /FROM DOTFILES/);
  });

  it('ContextService asks once per real path, not again after every compaction', async () => {
    const root = tree({ 'home/p.md': 'P' });
    const repo = join(root, 'ws/repo');
    mkdirSync(repo, { recursive: true });
    writeFileSync(join(repo, 'CLAUDE.md'), 'see @~/p.md');
    let asks = 0;
    const svc = new ContextService({ cwd: repo, ...base(root), host: testHost({ approveExternal: async () => (asks++, false) }) });
    for (let i = 0; i < 3; i++) {
      await svc.reminders();
      svc.clear();
    }
    assert.equal(asks, 1);
  });
});

describe('only regular files are read as instructions', () => {
  it('a FIFO named CLAUDE.md (and one as a rule and as an include) does not hang `threadline context`', { timeout: 20_000 }, async () => {
    const root = tree({ 'ws/.claude/rules/ok.md': 'ok rule' });
    const ws = join(root, 'ws');
    execFileSync('mkfifo', [join(ws, 'CLAUDE.md')]);
    execFileSync('mkfifo', [join(ws, '.claude/rules/pipe.md')]);
    execFileSync('mkfifo', [join(ws, 'pipe.md')]);
    writeFileSync(join(ws, 'AGENTS.md'), 'see @./pipe.md');
    let out = '';
    const run = runCli(['context', '--json'], { io: { out: (t) => (out += t), err: () => undefined }, env: { HOME: join(root, 'home') }, cwd: ws });
    const timer = new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000).unref());
    assert.equal(await Promise.race([run, timer]), 0);
    const files = (JSON.parse(out) as { instructionFiles: Array<{ path: string; status: string; reason?: string }> }).instructionFiles;
    for (const p of ['CLAUDE.md', '.claude/rules/pipe.md', 'pipe.md']) {
      assert.equal(files.find((f) => f.path === join(ws, p))?.reason, 'not-a-file', p);
    }
    assert.ok(files.some((f) => f.path === join(ws, '.claude/rules/ok.md') && f.status === 'included'));
    for (const f of files as Array<{ why?: string }>) assert.ok(f.why && f.why.length > 5, 'each file says why it was looked at');
  });
});

describe('a total instruction budget', () => {
  it('530k tokens of instruction files become at most the budget, biggest trimmed first, with a note in the prompt and the report', async () => {
    const big = (n: number, tag: string) => `${tag}\n${`${tag} line of instructions\n`.repeat(n)}`;
    const root = tree({
      'ws/CLAUDE.md': 'small and kept whole',
      'ws/AGENTS.md': big(20_000, 'AGENTS'), // ~120k tokens... capped by the 512 KB read limit first
      'ws/.claude/CLAUDE.md': big(12_000, 'DOT'),
      'ws/.claude/rules/a.md': big(12_000, 'RA'),
      'ws/.claude/rules/b.md': big(12_000, 'RB'),
      'ws/.claude/rules/c.md': big(12_000, 'RC'),
    });
    const set = await loadInstructions({ cwd: join(root, 'ws'), ...base(root) });
    const total = set.files.reduce((n, f) => n + estimateTokens(f.content), 0);
    assert.ok(total <= INSTRUCTION_BUDGET_TOKENS, `total ${total}`);
    assert.equal(set.files.find((f) => f.path.endsWith('CLAUDE.md') && f.content === 'small and kept whole')?.content, 'small and kept whole');
    const trimmed = set.report.filter((r) => /trimmed/.test(r.warning ?? ''));
    assert.equal(trimmed.length, 5);
    assert.match(formatInstructions(set.files)!, /Trimmed: the instruction files together/);
  });
});

describe('paths: frontmatter is validated', () => {
  for (const [label, fm] of [
    ['an object', 'paths:\n  src: "**/*.ts"'],
    ['a number', 'paths: 3'],
    ['a list with a number', 'paths: ["src/**", 3]'],
    ['empty', 'paths: ""'],
  ] as const) {
    it(`paths: as ${label} warns and keeps the rule out (not unconditional)`, async () => {
      const root = tree({ 'ws/.claude/rules/r.md': `---\n${fm}\n---\nSCOPED RULE` });
      const set = await loadInstructions({ cwd: join(root, 'ws'), ...base(root) });
      assert.doesNotMatch(formatInstructions(set.files) ?? '', /SCOPED RULE/);
      assert.equal(set.conditional.length, 0);
      const r = set.report.find((x) => x.path.endsWith('r.md'))!;
      assert.equal(r.status, 'skipped');
      assert.equal(r.reason, 'invalid-paths');
      assert.match(r.warning!, /paths:/);
    });
  }
});
