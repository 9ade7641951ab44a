import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { extractIncludes, formatInstructions, INSTRUCTIONS_PREAMBLE, loadInstructions, matchingRules, parseInstructionContent } from '../../../src/context/instructions';
import { applyReminders, reminderTypeOf } from '../../../src/context/reminders';
import type { MessageParam } from '../../../src/api/types';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tl-instr-'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

describe('instruction files', () => {
  it('loads managed, user, project root-to-cwd and local files, lowest priority first', async () => {
    const root = tree({
      'managed/CLAUDE.md': 'managed rule',
      'home/.claude/CLAUDE.md': 'user rule',
      'repo/CLAUDE.md': 'root project rule',
      'repo/.claude/CLAUDE.md': 'dot-claude rule',
      'repo/AGENTS.md': 'agents rule',
      'repo/CLAUDE.local.md': 'local rule',
      'repo/pkg/CLAUDE.md': 'package rule',
      'CLAUDE.md': 'above the repository: read too, as the reference does',
    });
    const set = await loadInstructions({ cwd: join(root, 'repo', 'pkg'), projectRoot: join(root, 'repo'), home: join(root, 'home'), managedRoot: join(root, 'managed'), filesystemRoot: root });
    assert.deepEqual(
      set.files.map((f) => [f.kind, f.content]),
      [
        ['managed', 'managed rule'],
        ['user', 'user rule'],
        ['project', 'above the repository: read too, as the reference does'],
        ['project', 'root project rule'],
        ['project', 'dot-claude rule'],
        ['project', 'agents rule'],
        ['local', 'local rule'],
        ['project', 'package rule'],
      ],
    );
    const text = formatInstructions(set.files)!;
    assert.ok(text.startsWith(INSTRUCTIONS_PREAMBLE));
    assert.match(text, new RegExp(`Contents of ${join(root, 'repo', 'CLAUDE.md').replace(/[/.]/g, '\\$&')} \\(project instructions, checked into the codebase\\):\\n\\nroot project rule`));
  });

  it('follows @includes in prose, not in code, up to five levels, stopping cycles and skipping missing files', async () => {
    const root = tree({
      'repo/CLAUDE.md': 'See @./docs/style.md and @missing.md.\n\n```\n@./docs/never.md\n```\n\nAlso `@./docs/never.md` inline. Mail me@example.com.',
      'repo/docs/style.md': 'style guide @./l2.md',
      'repo/docs/l2.md': '@./l3.md level2',
      'repo/docs/l3.md': '@./l4.md level3',
      'repo/docs/l4.md': '@./l5.md level4',
      'repo/docs/l5.md': '@./l6.md level5',
      'repo/docs/l6.md': '@./style.md level6',
      'repo/docs/never.md': 'must not load',
    });
    const repo = join(root, 'repo');
    const set = await loadInstructions({ cwd: repo, projectRoot: repo, home: join(root, 'home'), managedRoot: null, filesystemRoot: root });
    const contents = set.files.map((f) => f.content);
    assert.ok(contents.some((c) => c.startsWith('style guide')));
    // CLAUDE.md is level 1, so style, l2, l3 and l4 make five; l5 is past the cap (as Claude Code counts).
    assert.ok(contents.some((c) => c.includes('level4')));
    assert.ok(!contents.some((c) => c.includes('level5')), 'the sixth level is past the cap');
    assert.ok(!contents.some((c) => c.includes('must not load')));
    assert.ok(set.report.some((r) => r.reason === 'depth-cap'));
    assert.ok(set.report.some((r) => r.reason === 'missing' && r.path.endsWith('missing.md')));
    assert.deepEqual(extractIncludes('Use @~/team.md and @/etc/x.md, not `@./y.md`.'), ['~/team.md', '/etc/x.md']);
  });

  it('follows symlinked rules, sends a symlinked file once, and lets user files include from home', async () => {
    const root = tree({
      'repo/shared/rule.md': 'linked rule text',
      'repo/shared/real.md': 'real file text',
      'home/.claude/CLAUDE.md': 'user @~/notes/mine.md',
      'home/notes/mine.md': 'from home',
    });
    const { symlinkSync, mkdirSync: mk } = await import('node:fs');
    mk(join(root, 'repo/.claude/rules'), { recursive: true });
    symlinkSync(join(root, 'repo/shared/rule.md'), join(root, 'repo/.claude/rules/linked.md'));
    symlinkSync(join(root, 'repo/shared/real.md'), join(root, 'repo/CLAUDE.md'));
    writeFileSync(join(root, 'repo/AGENTS.md'), `see @${join(root, 'repo/shared/real.md')}`);
    const repo = join(root, 'repo');
    const set = await loadInstructions({ cwd: repo, projectRoot: repo, home: join(root, 'home'), managedRoot: null, filesystemRoot: root });
    const texts = set.files.map((f) => f.content);
    assert.ok(texts.includes('linked rule text'));
    assert.equal(texts.filter((t) => t === 'real file text').length, 1);
    assert.ok(texts.includes('from home'));
  });

  it('matches rule globs relative to the folder that holds the rules', async () => {
    const root = tree({ '.claude/rules/ts.md': '---\npaths: ["src/**/*.ts"]\n---\nTS rule', 'app/src/x.ts': '' });
    const set = await loadInstructions({ cwd: join(root, 'app'), projectRoot: root, home: join(root, 'home'), managedRoot: null, filesystemRoot: root });
    assert.equal(matchingRules(set, join(root, 'src/a.ts'), join(root, 'app')).length, 1);
    assert.equal(matchingRules(set, 'src/x.ts', join(root, 'app')).length, 0, 'app/src/x.ts is not src/** of the root');
  });

  it('stops an include cycle', async () => {
    const root = tree({ 'CLAUDE.md': 'a @./b.md', 'b.md': 'b @./CLAUDE.md' });
    const set = await loadInstructions({ cwd: root, home: join(root, 'home'), managedRoot: null, filesystemRoot: root });
    assert.equal(set.files.length, 2);
    assert.ok(set.report.some((r) => r.reason === 'cycle'));
  });

  it('asks before following an include outside the project, and skips it when not approved', async () => {
    const root = tree({ 'repo/CLAUDE.md': 'see @../outside.md', 'outside.md': 'outside text' });
    const repo = join(root, 'repo');
    const asked: string[] = [];
    const denied = await loadInstructions({ cwd: repo, home: join(root, 'home'), managedRoot: null, filesystemRoot: root, approveExternal: async (p) => (asked.push(p), false) });
    assert.deepEqual(asked, [join(root, 'outside.md')]);
    assert.ok(!denied.files.some((f) => f.content === 'outside text'));
    assert.ok(denied.report.some((r) => r.reason === 'external-not-approved'));
    const approved = await loadInstructions({ cwd: repo, home: join(root, 'home'), managedRoot: null, filesystemRoot: root, approveExternal: async () => true });
    assert.ok(approved.files.some((f) => f.content === 'outside text'));
  });

  it('strips frontmatter and HTML comments outside code; rules with paths: apply only to matching files', async () => {
    const parsed = parseInstructionContent('---\ntitle: x\n---\n<!-- maintainer note -->\n\nKeep this.\n\n```html\n<!-- kept in code -->\n```\n');
    assert.doesNotMatch(parsed.body, /maintainer note|title: x/);
    assert.match(parsed.body, /Keep this\./);
    assert.match(parsed.body, /kept in code/);
    const root = tree({
      '.claude/rules/tests.md': '---\npaths:\n  - "**/*.test.ts"\n---\nUse node:test.',
      '.claude/rules/always.md': 'Always rule.',
    });
    const set = await loadInstructions({ cwd: root, home: join(root, 'home'), managedRoot: null, filesystemRoot: root });
    assert.deepEqual(set.files.map((f) => f.content), ['Always rule.']);
    assert.equal(set.conditional.length, 1);
    assert.equal(matchingRules(set, 'src/a.test.ts', root).length, 1);
    assert.equal(matchingRules(set, 'src/a.ts', root).length, 0);
  });

  it('reads no project or local files in an untrusted folder, and says so', async () => {
    const root = tree({ 'CLAUDE.md': 'project', 'CLAUDE.local.md': 'local', 'home/.claude/CLAUDE.md': 'user' });
    const set = await loadInstructions({ cwd: root, home: join(root, 'home'), managedRoot: null, filesystemRoot: root, trusted: false });
    assert.deepEqual(set.files.map((f) => f.content), ['user']);
    assert.equal(set.report.filter((r) => r.reason === 'untrusted-workspace').length, 2);
  });
});

describe('instruction files: bad input', () => {
  it('caps a 10 MB file, skips a binary one, reads broken frontmatter as none, handles odd paths', async () => {
    const root = tree({
      'CLAUDE.md': `start\n${'x'.repeat(10 * 1024 * 1024)}`,
      // Broken even after quoting (as the reference retries): read as no frontmatter, the block left out.
      '.claude/CLAUDE.md': '---\nname: "unclosed\n---\nbody after broken frontmatter',
      'dir with spaces/ünïcödé/CLAUDE.md': 'nested odd path',
    });
    writeFileSync(join(root, 'AGENTS.md'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]));
    const cwd = join(root, 'dir with spaces', 'ünïcödé');
    const set = await loadInstructions({ cwd, projectRoot: root, home: join(root, 'home'), managedRoot: null, filesystemRoot: root });
    const big = set.files.find((f) => f.path === join(root, 'CLAUDE.md'))!;
    assert.ok(big.content.length < 600 * 1024);
    assert.match(big.content, /only its beginning is included|the rest of this file is not included/);
    assert.match(set.report.find((r) => r.path === join(root, 'CLAUDE.md'))!.warning!, /capped/);
    assert.equal(set.report.find((r) => r.path === join(root, 'AGENTS.md'))?.reason, 'binary');
    const broken = set.files.find((f) => f.path === join(root, '.claude', 'CLAUDE.md'))!;
    assert.equal(broken.content, 'body after broken frontmatter');
    assert.match(set.report.find((r) => r.path === broken.path)!.warning!, /frontmatter/);
    assert.ok(set.files.some((f) => f.content === 'nested odd path'));
  });
});

describe('reminders', () => {
  it('puts one reminder per type at the head and drops older copies', () => {
    const history: MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'hello' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
      { role: 'user', content: [{ type: 'text', text: '<system-reminder type="instructions">\nold\n</system-reminder>' }, { type: 'text', text: 'next' }] },
    ];
    const out = applyReminders(history, [{ type: 'instructions', text: 'new rules' }]);
    const all = out.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
    assert.equal(all.filter((b) => reminderTypeOf(b) === 'instructions').length, 1);
    const first = out[0]!.content as Array<{ type: string; text: string }>;
    assert.match(first[0]!.text, /new rules/);
    assert.equal(first[1]!.text, 'hello');
    assert.equal(out.length, 3);
    assert.deepEqual(applyReminders(history, [{ type: 'instructions', text: 'new rules' }]), out, 'the same input gives the same bytes');
  });
});
