// Where rules come from (Claude Code's settings files, read as it reads them), how they are
// listed, the agent's own /proc entries, and the trust file's refusals.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isOwnProcessPath, ownProcessTree } from '../../../src/fs/ownProcess';
import { describeSources, formatRules, readClaudeSettings } from '../../../src/permissions/ruleSources';
import { applicablePart, describeWithheld, projectMayAllow, withheldGrants } from '../../../src/permissions/projectTrust';
import { TrustStore } from '../../../src/permissions/trustStore';

const tmp = (tag: string) => realpathSync(mkdtempSync(join(tmpdir(), `tl-src-${tag}-`)));

function layout() {
  const root = tmp('settings');
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(join(ws, '.claude'), { recursive: true });
  mkdirSync(join(home, '.claude'), { recursive: true });
  const warnings: string[] = [];
  const read = (o: { env?: NodeJS.ProcessEnv; managedFile?: string } = {}) =>
    readClaudeSettings({ cwd: ws, home, env: o.env ?? {}, managedFile: o.managedFile ?? join(root, 'none.json'), warn: (m) => warnings.push(m) });
  const put = (file: string, value: unknown) => writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return { root, ws, home, warnings, read, put };
}

describe("Claude Code's settings files", () => {
  it('reads managed, local, project and user files in that order, each with its label and root', () => {
    const { root, ws, home, read, put, warnings } = layout();
    const managed = join(root, 'managed.json');
    put(managed, { permissions: { deny: ['Bash(curl:*)'] } });
    put(join(ws, '.claude', 'settings.local.json'), { permissions: { allow: ['Edit'] } });
    put(join(ws, '.claude', 'settings.json'), { permissions: { ask: ['Write'], defaultMode: 'plan' } });
    put(join(home, '.claude', 'settings.json'), { permissions: { allow: ['Read'], additionalDirectories: ['~/notes', '~', 'rel', '/abs'] } });
    assert.deepEqual(read({ managedFile: managed }), [
      { deny: ['Bash(curl:*)'], label: managed, root: ws },
      { allow: ['Edit'], label: '.claude/settings.local.json', root: ws, project: true },
      { ask: ['Write'], defaultMode: 'plan', label: '.claude/settings.json', root: ws, project: true },
      { allow: ['Read'], additionalDirectories: [join(home, 'notes'), home, join(ws, 'rel'), '/abs'], label: '~/.claude/settings.json', root: ws },
    ]);
    assert.deepEqual(warnings, []);
  });

  it('the user file comes from an absolute CLAUDE_CONFIG_DIR, named by its path; a relative one is ignored', () => {
    const { root, home, read, put } = layout();
    const config = join(root, 'config');
    mkdirSync(config);
    put(join(config, 'settings.json'), { permissions: { allow: ['Bash'] } });
    put(join(home, '.claude', 'settings.json'), { permissions: { allow: ['Read'] } });
    assert.deepEqual(read({ env: { CLAUDE_CONFIG_DIR: config } }), [{ allow: ['Bash'], label: join(config, 'settings.json'), root: join(root, 'ws') }]);
    assert.deepEqual(read({ env: { CLAUDE_CONFIG_DIR: 'config' } }).map((s) => s.label), ['~/.claude/settings.json']);
  });

  it('a file without permissions is an empty source; bad parts are named and dropped, good parts kept', () => {
    const { ws, home, read, put, warnings } = layout();
    const project = join(ws, '.claude', 'settings.json');
    const user = join(home, '.claude', 'settings.json');
    put(project, { model: 'x' });
    put(user, { permissions: { allow: ['Read', 3], deny: 'Bash', ask: ['Write'], defaultMode: 7 } });
    assert.deepEqual(read(), [
      { label: '.claude/settings.json', root: ws, project: true },
      { ask: ['Write'], label: '~/.claude/settings.json', root: ws },
    ]);
    assert.deepEqual(warnings, [`"permissions.allow" in ${user} is not a list of strings; ignored`, `"permissions.deny" in ${user} is not a list of strings; ignored`]);
    warnings.length = 0;
    put(user, { permissions: ['Read'] });
    put(project, 'null');
    assert.deepEqual(read().map((s) => s.label), ['.claude/settings.json']);
    assert.deepEqual(warnings, [`"permissions" in ${user} is not an object; ignored`]);
    warnings.length = 0;
    put(user, { permissions: 'all' });
    read();
    assert.deepEqual(warnings, [`"permissions" in ${user} is not an object; ignored`]);
  });

  it('a file over 1 MB, a folder or bad JSON is named and skipped; a missing file is silent', () => {
    const { ws, home, read, put, warnings } = layout();
    const project = join(ws, '.claude', 'settings.json');
    put(project, JSON.stringify({ permissions: { allow: ['Bash'] }, pad: 'x'.repeat(1024 * 1024) }));
    mkdirSync(join(ws, '.claude', 'settings.local.json'));
    put(join(home, '.claude', 'settings.json'), '{"permissions": ');
    assert.deepEqual(read(), []);
    assert.equal(warnings.length, 3);
    assert.equal(warnings[0], `${join(ws, '.claude', 'settings.local.json')} is not a regular file; its rules are ignored`);
    assert.equal(warnings[1], `${project} is larger than 1 MB; its rules are ignored`);
    assert.match(warnings[2]!, new RegExp(`^${join(home, '.claude', 'settings.json')} is not valid JSON \\(.+\\); its rules are ignored$`));
    // The parser's message quotes the text: a settings file linked to a secret must not show it.
    warnings.length = 0;
    put(join(home, '.claude', 'settings.json'), 'CANARY-SECRET-KEY-MATERIAL');
    read();
    assert.ok(warnings.some((w) => w.startsWith(`${join(home, '.claude', 'settings.json')} is not valid JSON`)), warnings.join('\n'));
    assert.doesNotMatch(warnings.join('\n'), /CANARY/);
    // A byte order mark (Windows editors) is not bad JSON: the deny rules after it hold.
    writeFileSync(join(home, '.claude', 'settings.json'), `\uFEFF${JSON.stringify({ permissions: { deny: ['Bash'] } })}`);
    warnings.length = 0;
    assert.deepEqual(read().filter((s) => s.deny?.length).map((s) => s.deny), [['Bash']]);
    assert.ok(!warnings.some((w) => w.includes('not valid JSON')), warnings.join('\n'));
    // Exactly 1 MB is still read.
    const exact = JSON.stringify({ permissions: { allow: ['Bash'] }, pad: '' });
    put(project, exact.replace('"pad":""', `"pad":"${'x'.repeat(1024 * 1024 - exact.length)}"`));
    warnings.length = 0;
    assert.deepEqual(read().filter((s) => s.allow).map((s) => s.allow), [['Bash']]);
  });
});

describe('listing rules', () => {
  it('deny, then ask, then allow, each with its file; withheld grants and added folders shown', () => {
    const sources = [
      { label: 'user.json', allow: ['Read'], deny: ['Bash(rm:*)'] },
      { label: 'proj.json', project: true, allow: ['Bash'], ask: ['Write'] },
    ];
    const rules = describeSources(sources, false);
    assert.deepEqual(
      rules.map((r) => `${r.behavior} ${r.rule} ${r.source} ${r.active}`),
      ['deny Bash(rm:*) user.json true', 'ask Write proj.json true', 'allow Read user.json true', 'allow Bash proj.json false'],
    );
    const withheld = [
      { source: 'proj.json', grant: 'allow Bash' },
      { source: 'proj.json', grant: 'defaultMode acceptEdits' },
    ];
    assert.equal(
      formatRules(rules, [{ dir: '/srv/data', source: '--add-dir' }], withheld),
      [
        'Permission rules (deny beats ask beats allow):',
        '  deny  Bash(rm:*)  — user.json',
        '  ask   Write  — proj.json',
        '  allow Read  — user.json',
        '  allow Bash  — proj.json (not applied: the folder is not trusted)',
        '  folder /srv/data  — --add-dir',
        '  defaultMode acceptEdits  — proj.json (not applied: the folder is not trusted)',
      ].join('\n'),
    );
  });

  it('says when there is nothing, and makes text from files printable', () => {
    const none = 'Permission rules: none (reads inside the workspace run; edits, commands and anything outside ask).';
    assert.equal(formatRules([]), none);
    assert.equal(formatRules([], [], [{ source: 'p', grant: 'allow Bash' }]), none, 'a withheld allow rule is listed with the rules, not alone');
    assert.notEqual(formatRules([], [{ dir: '/d', source: 's' }]), none);
    assert.notEqual(formatRules([], [], [{ source: 'p', grant: 'defaultMode acceptEdits' }]), none);
    const shown = formatRules([{ behavior: 'allow', rule: 'Bash(echo \u001b[2J)', source: 'evil\u202e.json', active: true }]);
    assert.ok(!shown.includes('\u001b') && !shown.includes('\u202e'), shown);
    assert.match(shown, /\\x1b\[2J/);
  });
});

describe('project trust', () => {
  it('a project file may allow inside itself only, and names what trust would add', () => {
    assert.equal(projectMayAllow({ tool: 'Read', pattern: '//etc/**' }), false);
    assert.equal(projectMayAllow({ tool: 'Grep', pattern: ' ~/x' }), false);
    assert.equal(projectMayAllow({ tool: 'Glob', pattern: '../x' }), false);
    assert.equal(projectMayAllow({ tool: 'Write', pattern: 'a/../../x' }), false);
    assert.equal(projectMayAllow({ tool: 'Read', pattern: 'a..b/c' }), true);
    assert.equal(projectMayAllow({ tool: 'Read', pattern: '/src/**' }), true, '/path is the project');
    assert.equal(projectMayAllow({ tool: 'Read', pattern: undefined }), true);
    assert.equal(projectMayAllow({ tool: 'WebFetch', pattern: '//x' }), true, 'not a file rule');
    // Pass 51 N2: a trusted project's exact Bash rule read ~/.ssh/id_rsa.
    for (const pattern of ['cat /home/u/.ssh/id_rsa', 'cat ~/.ssh/id_rsa', 'cat ../home/.ssh/id_rsa', 'grep -r x --file=/etc/passwd', 'cat a/../../x:*']) assert.equal(projectMayAllow({ tool: 'Bash', pattern }), false, pattern);
    for (const pattern of ['npm test:*', './scripts/test.sh', 'cat src/a..b', 'make -C build:*']) assert.equal(projectMayAllow({ tool: 'Bash', pattern }), true, pattern);
    const w = withheldGrants([{ label: 'p', project: true, allow: ['Bash(x', 'Read(~/.ssh)', 'Edit'], defaultMode: 'plan' }], false);
    assert.deepEqual(w, [{ source: 'p', grant: 'allow Edit' }], 'a malformed rule, one that can never apply and a restricting mode are not grants');
    assert.equal(describeWithheld([]), '');
    assert.equal(describeWithheld([{ source: 'a\u001b', grant: 'allow Bash' }]), 'from a\\x1b: allow Bash');
  });

  it('untrusted, a project file keeps its root, deny, ask and restricting mode, and nothing else', () => {
    assert.deepEqual(applicablePart({ label: 'p', project: true, root: '/r', allow: ['Bash'], additionalDirectories: ['/'] }, false), { label: 'p', project: true, root: '/r' });
    assert.deepEqual(applicablePart({ label: 'p', project: true }, false), { label: 'p', project: true });
  });
});

describe("the agent's own process", () => {
  it('is this process and its ancestors, up to init', () => {
    const tree = ownProcessTree();
    assert.ok(tree.has(process.pid));
    assert.ok(tree.has(process.ppid));
    assert.equal(ownProcessTree(), tree, 'read once');
  });

  it('its /proc entries, /proc/self for a file tool, and the file descriptors of /dev', () => {
    const tree = new Set([100, 1]);
    assert.equal(isOwnProcessPath('/proc/100/environ', 'command', tree), true);
    assert.equal(isOwnProcessPath('/proc/100', 'command', tree), true);
    assert.equal(isOwnProcessPath('/proc/1000/environ', 'command', tree), false);
    assert.equal(isOwnProcessPath('/proc/self/environ', 'agent', tree), true);
    assert.equal(isOwnProcessPath('/proc/thread-self/environ', 'agent', tree), true);
    assert.equal(isOwnProcessPath('/proc/self/environ', 'command', tree), false, "a command's /proc/self is its own");
    assert.equal(isOwnProcessPath('/proc/selfish', 'agent', tree), false);
    assert.equal(isOwnProcessPath('/proc/cpuinfo', 'agent', tree), false);
    assert.equal(isOwnProcessPath('/proc/x/../100/environ', 'command', tree), true, 'normalized first');
    assert.equal(isOwnProcessPath('/x/proc/100', 'command', tree), false);
    for (const p of ['/dev/fd', '/dev/fd/3', '/dev/stdin', '/dev/stdout', '/dev/stderr']) assert.equal(isOwnProcessPath(p, 'agent', tree), true, p);
    for (const p of ['/dev/fdx', '/dev/stdinx', '/dev/null', '/x/dev/stdin']) assert.equal(isOwnProcessPath(p, 'agent', tree), false, p);
    assert.equal(isOwnProcessPath('/dev/stdin', 'command', tree), false);
  });
});

describe('the trust file', () => {
  it('is kept as a versioned list, and a folder without a time still counts', async () => {
    const state = tmp('trust');
    const store = new TrustStore(state);
    await store.trust('/a/b', new Date('2026-01-01T00:00:00Z'));
    const { readFileSync } = await import('node:fs');
    assert.deepEqual(JSON.parse(readFileSync(store.file, 'utf8')), { version: 1, folders: [{ path: '/a/b', trustedAt: '2026-01-01T00:00:00.000Z' }] });
    assert.ok(readFileSync(store.file, 'utf8').endsWith('\n'));
    writeFileSync(store.file, JSON.stringify({ folders: [{ path: '/a/b' }, { path: 'C:\\work' }] }));
    assert.deepEqual(await store.list(), [
      { path: '/a/b', trustedAt: '' },
      { path: 'C:\\work', trustedAt: '' },
    ]);
  });

  it('forgets only the folder it is asked to', async () => {
    const store = new TrustStore(tmp('trust'));
    await store.trust('/a');
    await store.trust('/b');
    assert.deepEqual(await store.revoke('/a'), { was: true });
    assert.deepEqual((await store.list()).map((f) => f.path), ['/b']);
    assert.deepEqual(await store.revoke('/c'), { was: false });
    assert.deepEqual((await store.list()).map((f) => f.path), ['/b']);
  });

  it('names what is wrong with it', async () => {
    const store = new TrustStore(tmp('trust'));
    const problem = async () => (await store.isTrusted('/x')).problem;
    writeFileSync(store.file, '[]');
    assert.equal(await problem(), `${store.file} has no "folders" list`);
    writeFileSync(store.file, 'null');
    assert.equal(await problem(), `${store.file} has no "folders" list`);
    writeFileSync(store.file, '{"folders":[null]}');
    assert.equal(await problem(), `${store.file} lists a folder that is not an absolute path: undefined`);
    writeFileSync(store.file, '{"folders":[{"path":"rel"}]}');
    assert.equal(await problem(), `${store.file} lists a folder that is not an absolute path: "rel"`);
    writeFileSync(store.file, '{');
    assert.match((await problem()) ?? '', new RegExp(`^${store.file} is not valid JSON \\(.+\\)$`));
    writeFileSync(store.file, 'x'.repeat(1024 * 1024 + 1));
    assert.equal(await problem(), `${store.file} cannot be read (larger than 1 MB)`);
  });
});
