import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { sharedBashChecker } from '../../../src/permissions/bash/checker';
import { Permissions, type PermissionRules } from '../../../src/permissions/permissions';
import { readClaudeSettings, type RuleSource } from '../../../src/permissions/ruleSources';
import { createTools } from '../../../src/tools/builtin';
import type { Tool } from '../../../src/tools/types';
import { makeHostileWorkspace } from '../../support/hostileWorkspace.mjs';

// Bash decisions need the shell parser loaded (the permission broker awaits it before each call).
before(() => sharedBashChecker().ready());

const tools = new Map(createTools().map((t) => [t.name, t as Tool]));
const tool = (name: string) => tools.get(name)!;

interface EngineOpts {
  trusted?: boolean;
  headless?: boolean;
  sources?: RuleSource[];
  home?: string;
  label?: string;
}

function engine(cwd: string, rules: Partial<PermissionRules> = {}, o: EngineOpts = {}) {
  const warnings: string[] = [];
  const p = new Permissions(
    {
      cwd,
      rules: () => ({ allow: [], ask: [], deny: [], ...rules }),
      trusted: () => o.trusted ?? true,
      headless: o.headless ?? false,
      ...(o.sources ? { sources: () => o.sources! } : {}),
      ...(o.home ? { home: o.home } : {}),
      ...(o.label ? { rulesLabel: o.label } : {}),
    },
    (m) => warnings.push(m),
  );
  const verdict = (name: string, input: unknown) => p.decide({ tool: tool(name), input });
  const decide = (name: string, input: unknown) => verdict(name, input).behavior;
  return { p, decide, verdict, warnings };
}

const edit = (file_path: string) => ({ file_path, old_string: 'a', new_string: 'b' });
const write = (file_path: string) => ({ file_path, content: 'x' });

describe('paths by realpath', () => {
  it('an allow rule for src/** does not reach .git/hooks through a symlink in src', () => {
    const { ws } = makeHostileWorkspace();
    const { decide } = engine(ws, { allow: ['Write(src/**)', 'Edit(src/**)'] });
    assert.equal(decide('Write', write('src/ok.js')), 'allow');
    assert.equal(decide('Write', write('src/h/post-checkout')), 'ask');
    assert.equal(decide('Edit', edit('src/h/pre-commit')), 'ask');
  });

  it('.git/, .vscode/ and .claude/ always ask before a write, even with a tool-wide grant; a deny still denies', () => {
    const { ws } = makeHostileWorkspace();
    const { p, decide } = engine(ws, { allow: ['Write', 'Edit', 'Write(.git/**)'] });
    assert.equal(decide('Write', write('.git/hooks/post-checkout')), 'ask');
    assert.equal(decide('Write', write('.vscode/settings.json')), 'ask');
    assert.equal(decide('Edit', edit('.claude/settings.local.json')), 'ask');
    assert.equal(decide('Write', write('sub/.git/config')), 'ask');
    assert.equal(decide('Write', write('src/app.js')), 'allow');
    assert.equal(decide('Read', { file_path: '.git/config' }), 'allow', 'reading is not writing');
    p.grantForSession({ tool: tool('Write'), input: write('.git/hooks/x') });
    assert.equal(decide('Write', write('.git/hooks/x')), 'ask', 'a session grant does not open them either');
    const denied = engine(ws, { allow: ['Write'], deny: ['Write(.git/**)'] });
    assert.equal(denied.decide('Write', write('.git/hooks/x')), 'deny');
  });

  it('a pattern without a leading / is relative to the workspace: Edit(*.md) never matches outside', () => {
    const { ws, outside } = makeHostileWorkspace();
    const { decide } = engine(ws, { allow: ['Edit(*.md)', 'Write(*.md)'] });
    assert.equal(decide('Edit', edit('docs/guide.md')), 'allow', 'any depth inside, as gitignore');
    assert.equal(decide('Edit', edit(join(outside, 'notes.md'))), 'ask');
    assert.equal(decide('Write', write(join(outside, 'CLAUDE.md'))), 'ask');
  });

  it('//abs and ~/ patterns work outside the workspace; /path is relative to the rule root', () => {
    const { ws, outside, root } = makeHostileWorkspace();
    const { decide } = engine(ws, { allow: [`Read(/${outside}/**)`] });
    assert.equal(decide('Read', { file_path: join(outside, 'secret.txt') }), 'allow');
    assert.equal(decide('Grep', { pattern: 'x', path: outside }), 'allow');
    const home = engine(ws, { allow: ['Read(~/outside/**)'] }, { home: root });
    assert.equal(home.decide('Read', { file_path: join(outside, 'secret.txt') }), 'allow');
    const rooted = engine(ws, { allow: ['Edit(/src/**)'] });
    assert.equal(rooted.decide('Edit', edit('src/app.js')), 'allow');
    assert.equal(rooted.decide('Edit', edit('lib/src/app.js')), 'ask');
    // A deny or ask rule written /abs is also read as absolute: the user who wrote it is protected.
    const deny = engine(ws, { deny: [`Read(${outside}/**)`] });
    assert.equal(deny.decide('Read', { file_path: join(outside, 'secret.txt') }), 'deny');
  });

  it('a Read through a workspace symlink to a private file asks, and a deny on the real path holds', () => {
    const { ws, outside } = makeHostileWorkspace();
    assert.equal(engine(ws).decide('Read', { file_path: 'src/notes.txt' }), 'ask');
    assert.equal(engine(ws, { allow: ['Read(src/**)'] }).decide('Read', { file_path: 'src/notes.txt' }), 'ask');
    assert.equal(engine(ws, { deny: [`Read(/${outside}/**)`] }).decide('Read', { file_path: 'src/notes.txt' }), 'deny');
  });

  it('a Read deny covers Grep and Glob; an Edit rule covers Write; a Write deny covers Edit', () => {
    const { ws } = makeHostileWorkspace();
    writeFileSync(join(ws, '.env'), 'TOKEN=1\n');
    const { decide, p } = engine(ws, { deny: ['Read(secrets/**)', 'Write(generated/**)'], allow: ['Edit(lib/**)'] });
    assert.equal(decide('Grep', { pattern: 'x', path: 'secrets' }), 'deny');
    assert.equal(decide('Glob', { pattern: '*', path: 'secrets/deep' }), 'deny');
    assert.equal(decide('Edit', edit('generated/a.ts')), 'deny');
    assert.equal(decide('Write', write('lib/a.ts')), 'allow');
    const r = engine(ws, { deny: ['Read(**/.env)'] });
    assert.equal(r.p.mayShow(join(ws, '.env'), ws), false);
    assert.equal(r.p.mayShow(join(ws, 'README.md'), ws), true);
    assert.equal(p.mayShow(join(ws, 'README.md'), ws), true);
  });

  // Mutation testing: no test reached readable(), and mayShow() could show every file outside the
  // search root, or none, without a test failing.
  it('a search result outside the searched folder shows only where a Read would run without asking', () => {
    const { ws, outside } = makeHostileWorkspace();
    writeFileSync(join(outside, '.env'), 'TOKEN=1\n');
    const secret = join(outside, 'secret.txt');
    const none = engine(ws).p;
    // Reached through a symlink from the workspace, the private file stays hidden...
    assert.equal(none.mayShow(secret, ws), false);
    // ...a workspace file found from another root shows...
    assert.equal(none.mayShow(join(ws, 'README.md'), outside), true);
    // ...and inside the searched folder a file shows even if a Read of it would ask.
    assert.equal(none.mayShow(secret, outside), true);
    const allowed = engine(ws, { allow: [`Read(/${outside}/**)`], deny: [`Read(/${outside}/.env)`] }).p;
    assert.equal(allowed.mayShow(secret, ws), true, 'a Read allow rule covers it');
    assert.equal(allowed.mayShow(join(outside, '.env'), ws), false, 'a Read deny holds over the allow');
    assert.equal(allowed.mayShow(join(outside, '.env'), outside), false, 'a Read deny holds inside the searched folder too');
    assert.equal(engine(ws, { allow: [`Edit(/${outside}/**)`] }).p.mayShow(secret, ws), false, 'an Edit rule is not a Read rule');
    assert.equal(engine(ws, { allow: ['Read'] }).p.mayShow(secret, ws), false, 'a tool-wide Read allow names no place');
    assert.equal(engine(ws, { allow: [`Read(/${outside}/**)`], deny: ['Read'] }).p.mayShow(secret, ws), false, 'a tool-wide Read deny hides it');
  });

  it('a Glob with an absolute or ../ pattern, or a Grep with a ../ glob, asks like a Read outside', () => {
    const { ws, outside } = makeHostileWorkspace();
    const { decide } = engine(ws);
    assert.equal(decide('Glob', { pattern: join(outside, '*') }), 'ask');
    assert.equal(decide('Glob', { pattern: '../outside/**' }), 'ask');
    assert.equal(decide('Grep', { pattern: 'SECRET', glob: '../outside/*' }), 'ask');
    assert.equal(decide('Glob', { pattern: 'src/**' }), 'allow');
  });
});

describe('added folders', () => {
  it('reads run in an added folder like in the workspace; writes there ask', () => {
    const { ws, outside } = makeHostileWorkspace();
    const { decide } = engine(ws, {}, { sources: [{ label: '--add-dir', additionalDirectories: [outside] }] });
    assert.equal(decide('Read', { file_path: join(outside, 'secret.txt') }), 'allow');
    assert.equal(decide('Grep', { pattern: 'x', path: outside }), 'allow');
    assert.equal(decide('Write', write(join(outside, 'new.txt'))), 'ask');
  });
});

describe('denials name what would allow them', () => {
  it('outside the workspace: --add-dir DIR or the exact //path rule, even when --allowed-tools Read was given', () => {
    const { ws, outside } = makeHostileWorkspace();
    const { verdict } = engine(ws, { allow: ['Read'] }, { headless: true, label: '--allowed-tools' });
    const v = verdict('Read', { file_path: join(outside, 'secret.txt') });
    assert.equal(v.behavior, 'deny');
    assert.ok(v.reason.includes(`--add-dir ${outside}`), v.reason);
    assert.ok(v.reason.includes(`--allowed-tools 'Read(/${join(outside, 'secret.txt')})'`), v.reason);
    assert.doesNotMatch(v.reason, /--allowed-tools Read\b/);
  });

  it('a write to a protected folder names no flag, since none allows it', () => {
    const { ws } = makeHostileWorkspace();
    const { verdict } = engine(ws, { allow: ['Write'] }, { headless: true, label: '--allowed-tools' });
    const v = verdict('Write', write('.git/hooks/post-checkout'));
    assert.equal(v.behavior, 'deny');
    assert.match(v.reason, /always asks before writing inside \.git\//);
    assert.doesNotMatch(v.reason, /--allowed-tools/);
  });

  it('a deny names the rule and the file it came from', () => {
    const { ws } = makeHostileWorkspace();
    const { verdict } = engine(ws, {}, { sources: [{ label: '.claude/settings.json', deny: ['Read(**/*.txt)'], project: true }] });
    assert.match(verdict('Read', { file_path: 'a.txt' }).reason, /Read\(\*\*\/\*\.txt\) \(\.claude\/settings\.json\)/);
  });
});

describe("Claude Code's settings", () => {
  function withSettings(project: unknown, user?: unknown, local?: unknown) {
    const { ws, root } = makeHostileWorkspace();
    const home = join(root, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(ws, '.claude', 'settings.json'), JSON.stringify(project));
    if (local) writeFileSync(join(ws, '.claude', 'settings.local.json'), JSON.stringify(local));
    if (user) writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify(user));
    const warnings: string[] = [];
    const sources = readClaudeSettings({ cwd: ws, home, env: {}, managedFile: join(root, 'none.json'), warn: (m) => warnings.push(m) });
    return { ws, home, sources, warnings };
  }

  it('a project allow for Bash(npm test:*) runs npm test unasked when trusted, and does nothing in Restricted Mode', () => {
    const { ws, sources } = withSettings({ permissions: { allow: ['Bash(npm test:*)', 'Read(//**)'] } });
    assert.equal(engine(ws, {}, { sources }).decide('Bash', { command: 'npm test' }), 'allow');
    assert.equal(engine(ws, {}, { sources }).decide('Bash', { command: 'npm publish' }), 'ask');
    const untrusted = engine(ws, {}, { sources, trusted: false });
    assert.equal(untrusted.decide('Bash', { command: 'npm test' }), 'deny');
    assert.equal(untrusted.decide('Read', { file_path: '/etc/hostname' }), 'ask', 'its Read(//**) is not applied either');
  });

  it('a project file may not allow paths outside the project, even when trusted (unlike the reference)', () => {
    const { ws, sources } = withSettings({ permissions: { allow: ['Read(//**)', 'Edit(~/**)', 'Read(../**)', 'Read(src/**)'], additionalDirectories: ['/'] } });
    const { decide, warnings } = engine(ws, {}, { sources });
    assert.equal(decide('Read', { file_path: '/etc/hostname' }), 'ask');
    assert.equal(decide('Grep', { pattern: 'x', path: '/etc' }), 'ask', 'its additionalDirectories are ignored');
    assert.equal(decide('Read', { file_path: 'src/app.js' }), 'allow');
    assert.match(warnings.join('\n'), /Read\(\/\/\*\*\) in \.claude\/settings\.json is ignored/);
    assert.match(warnings.join('\n'), /additionalDirectories in \.claude\/settings\.json are ignored/);
  });

  it("a deny in the project's settings beats an allow in Threadline's", () => {
    const { ws, sources } = withSettings({ permissions: { deny: ['Bash(npm test:*)', 'Edit(src/**)'] } });
    const { verdict } = engine(ws, { allow: ['Bash(npm test:*)', 'Edit'] }, { sources });
    assert.equal(verdict('Bash', { command: 'npm test' }).behavior, 'deny');
    assert.equal(verdict('Write', write('src/app.js')).behavior, 'deny');
  });

  it('user settings apply in Restricted Mode too; local beats project for defaultMode; lists every rule with its file', () => {
    const { ws, sources } = withSettings({ permissions: { defaultMode: 'default', allow: ['Edit(src/**)'] } }, { permissions: { deny: ['Read(**/*.pem)'] } }, { permissions: { defaultMode: 'acceptEdits' } });
    const untrusted = engine(ws, {}, { sources, trusted: false });
    assert.equal(untrusted.decide('Read', { file_path: 'key.pem' }), 'deny');
    const trusted = engine(ws, { allow: ['Read'] }, { sources });
    assert.equal(trusted.decide('Write', write('docs/new.md')), 'allow', 'acceptEdits from settings.local.json');
    assert.equal(trusted.decide('Write', write('.claude/x.json')), 'ask', 'but never a protected folder');
    const d = trusted.p.describeRules();
    assert.deepEqual(
      d.rules.map((r) => `${r.behavior} ${r.rule} ${r.source} ${r.active}`),
      ['deny Read(**/*.pem) ~/.claude/settings.json true', 'allow Read Threadline settings true', 'allow Edit(src/**) .claude/settings.json true'],
    );
    assert.deepEqual(d.defaultMode, { mode: 'acceptEdits', source: '.claude/settings.local.json' });
    assert.equal(untrusted.p.describeRules().rules.find((r) => r.rule === 'Edit(src/**)')?.active, false);
  });

  it('bad files are reported and skipped, and a FIFO named settings.json does not block', () => {
    const { ws, root } = makeHostileWorkspace();
    writeFileSync(join(ws, '.claude', 'settings.json'), '{ not json');
    execFileSync('mkfifo', [join(ws, '.claude', 'settings.local.json')]);
    const warnings: string[] = [];
    const sources = readClaudeSettings({ cwd: ws, home: join(root, 'nohome'), env: {}, managedFile: join(root, 'none.json'), warn: (m) => warnings.push(m) });
    assert.deepEqual(sources, []);
    assert.equal(warnings.length, 2);
    assert.match(warnings.join('\n'), /not a regular file/);
    assert.match(warnings.join('\n'), /not valid JSON/);
  });

  it('defaultMode bypassPermissions is not honoured, and says so', () => {
    const { ws, sources } = withSettings({ permissions: { defaultMode: 'bypassPermissions' } });
    const { decide, warnings } = engine(ws, {}, { sources });
    assert.equal(decide('Bash', { command: 'rm -rf /' }), 'ask');
    assert.match(warnings.join('\n'), /bypassPermissions/);
  });
});

describe('background agents are bound by the same rules', () => {
  it('reads only what the workspace rules allow, writes only in their own folder, nothing in Restricted Mode', () => {
    const { ws, outside, root } = makeHostileWorkspace();
    const memory = join(root, 'memory');
    mkdirSync(memory);
    let trusted = true;
    const p = new Permissions({ cwd: ws, rules: () => ({ allow: [], ask: [], deny: ['Read(**/*.pem)'] }), trusted: () => trusted });
    const everything = () => ({ allowed: true as const });
    const check = p.boundedCheck([memory], everything);
    const ok = (name: string, input: unknown) => check(tool(name), input).allowed;
    assert.equal(ok('Read', { file_path: join(outside, 'secret.txt') }), false);
    assert.equal(ok('Read', { file_path: join(root, '..', '..', 'etc', 'passwd') }), false);
    assert.equal(ok('Grep', { pattern: 'x', path: outside }), false);
    assert.equal(ok('Glob', { pattern: join(outside, '**') }), false);
    assert.equal(ok('Read', { file_path: 'src/notes.txt' }), false, 'not through a symlink either');
    assert.equal(ok('Read', { file_path: 'src/app.js' }), true);
    assert.equal(ok('Read', { file_path: 'key.pem' }), false, 'a deny rule holds');
    assert.equal(ok('Write', write(join(memory, 'topic.md'))), true);
    assert.equal(ok('Read', { file_path: join(memory, 'topic.md') }), true);
    assert.equal(ok('Write', write('src/app.js')), false);
    assert.equal(ok('Bash', { command: 'ls' }), false);
    trusted = false;
    assert.equal(ok('Read', { file_path: 'src/app.js' }), false);
    assert.equal(ok('Write', write(join(memory, 'topic.md'))), false);
  });

  it('their own check still decides first', () => {
    const { ws } = makeHostileWorkspace();
    const p = new Permissions({ cwd: ws, rules: () => ({ allow: [], ask: [], deny: [] }), trusted: () => true });
    const check = p.boundedCheck([ws], () => ({ allowed: false, reason: 'mine says no' }));
    const r = check(tool('Read'), { file_path: 'README.md' });
    assert.deepEqual(r, { allowed: false, reason: 'mine says no' });
  });
});

describe('a workspace symlink loop or dangling link does not break the check', () => {
  it('judges them by where they would land', () => {
    const root = mkdtempSync(join(tmpdir(), 'tl-loop-'));
    execFileSync('ln', ['-s', 'b', join(root, 'a')]);
    execFileSync('ln', ['-s', 'a', join(root, 'b')]);
    const { decide } = engine(root, { allow: ['Write(a/**)'] });
    assert.equal(decide('Read', { file_path: 'a/x' }), 'allow');
    assert.equal(decide('Write', write('a/x')), 'allow');
  });
});
