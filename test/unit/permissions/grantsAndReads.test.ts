// The permission engine beyond one decision: session grants, the headless refusals that name
// what would allow a call, what a search may show, background agents, and the rule listing.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { sharedBashChecker } from '../../../src/permissions/bash/checker';
import type { RuleSource } from '../../../src/permissions/ruleSources';
import { added, bash, engine, outside, read, root, tool, write, ws } from './engineFixture';

before(() => sharedBashChecker().ready());

describe('headless refusals', () => {
  it('a write in an added folder names the rule for that file', () => {
    const v = engine({ headless: true, rulesLabel: '--allowed-tools', list: [{ label: '--add-dir', additionalDirectories: [added] }] }).verdict('Write', write(join(added, 'a')));
    assert.equal(v.reason, `Write of ${join(added, 'a')} is a write in an added folder, and a headless run cannot ask; allow it with --allowed-tools 'Write(/${join(added, 'a')})'.`);
  });

  it('name the exact rule that would allow the file, or the tool for the workspace', () => {
    const v = engine({ headless: true, rulesLabel: '--allowed-tools' }).verdict('Write', write('src/a.ts'));
    assert.equal(v.behavior, 'deny');
    assert.equal(v.reason, "Changes files. It needs permission, and a headless run cannot ask; allow it with --allowed-tools 'Write(src/a.ts)' (or Write for every file in the workspace).");
  });
});

describe('session grants', () => {
  it('an edit in the workspace grants the tool there; outside, that real path only; each names itself', () => {
    const { p, verdict } = engine();
    p.grantForSession({ tool: tool('Write'), input: write('src/a') });
    assert.deepEqual(verdict('Write', write('src/b')), { behavior: 'allow', reason: 'Allowed by Edit for this session.' }, 'a workspace grant covers every file edit there, named as the Edit grant');
    assert.equal(verdict('Write', write(join(outside, 'a'))).behavior, 'ask', 'a workspace grant does not reach outside');
    p.grantForSession({ tool: tool('Write'), input: write(join(outside, 'a')) });
    assert.deepEqual(verdict('Write', write(join(outside, 'a'))), { behavior: 'allow', reason: `Allowed by Write(${join(outside, 'a')}) for this session.` });
    assert.equal(verdict('Write', write(join(outside, 'b'))).behavior, 'ask');
    assert.equal(verdict('Edit', { file_path: join(outside, 'a'), old_string: 'a', new_string: 'b' }).behavior, 'ask', 'a Write grant is not an Edit grant');
  });

  it('a Read granted outside makes that file readable to searches too', () => {
    const { p } = engine();
    const file = join(outside, 'notes.md');
    assert.equal(p.readable(file), false);
    p.grantForSession({ tool: tool('Read'), input: read(file) });
    assert.equal(p.readable(file), true);
    assert.equal(p.readable(join(outside, 'other.md')), false);
  });
});

describe('readable: what a read may reach without asking', () => {
  it('the workspace and added folders, a Read rule naming the place, never past a Read deny', () => {
    assert.equal(engine().p.readable(join(ws, 'src', 'a')), true);
    assert.equal(engine().p.readable(ws), true);
    assert.equal(engine().p.readable(join(outside, 'a')), false);
    const withAdded = engine({ list: [{ label: 'dirs', additionalDirectories: [added] }] }).p;
    assert.equal(withAdded.readable(join(added, 'a')), true);
    assert.equal(withAdded.readable(join(outside, 'a')), false, 'an added folder opens itself only');
    assert.equal(engine({ rules: { allow: [`Grep(/${outside}/**)`] } }).p.readable(join(outside, 'a')), true, 'Grep and Glob rules speak for reading too');
    assert.equal(engine({ rules: { allow: [`Write(/${outside}/**)`] } }).p.readable(join(outside, 'a')), false);
    assert.equal(engine({ rules: { allow: [`Read(${outside}/**)`] } }).p.readable(join(outside, 'a')), false, "an allow rule's /path is under the workspace");
    assert.equal(engine({ rules: { allow: [`Read(${outside}/**)`] } }).p.readable(join(ws, outside, 'a')), true);
    assert.equal(engine({ rules: { deny: ['Glob'] } }).p.readable(join(ws, 'src', 'a')), false, 'a tool-wide read deny');
    assert.equal(engine({ rules: { deny: ['Read(src/**)'] } }).p.readable(join(ws, 'src', 'a')), false);
    assert.equal(engine({ rules: { deny: ['Read(src/**)'] } }).p.readable(join(ws, 'plain', 'a')), true);
    assert.equal(engine({ rules: { deny: ['Write(src/**)'] } }).p.readable(join(ws, 'src', 'a')), true, 'a write deny is not a read deny');
  });

  it('a search shows what it found in its own folder unless a read deny names it', () => {
    // A relative pattern never reaches outside the workspace; this one names the searched folder.
    const { p } = engine({ rules: { deny: [`Read(/${outside}/**/*.pem)`, 'Bash'] } });
    assert.equal(p.mayShow(join(outside, 'a.txt'), outside), true);
    assert.equal(p.mayShow(join(outside, 'k.pem'), outside), false);
    const show = engine({ rules: { deny: [`Write(/${outside}/**/*.pem)`] } }).p.forSearch();
    assert.equal(show(join(outside, 'k.pem'), outside), true);
    assert.equal(show(join(root, 'other', 'k.pem'), outside), false);
  });
});

describe('background agents', () => {
  const yes = () => ({ allowed: true as const });

  it('say why they refuse: Restricted Mode, a tool that is not a file tool, no path, a deny, outside', () => {
    const mem = join(root, 'mem');
    mkdirSync(mem, { recursive: true });
    assert.deepEqual(engine({ trusted: () => false }).p.boundedCheck([mem], yes)(tool('Read'), read('src/a')), { allowed: false, reason: 'Background agents do nothing in Restricted Mode.' });
    const { p } = engine({ rules: { deny: ['Read(**/*.pem)'], allow: ['Bash'] }, list: [{ label: 'team.json', deny: [`Write(/${mem}/*.lock)`] }] });
    const check = p.boundedCheck([mem], yes);
    assert.deepEqual(check(tool('Bash'), bash('ls')), { allowed: false, reason: 'Bash is not available to background agents.' });
    assert.deepEqual(check(tool('Read'), {}), { allowed: false, reason: 'The call names no path.' });
    assert.deepEqual(check(tool('Read'), read('a.pem')), { allowed: false, reason: 'Denied by the rule Read(**/*.pem).' });
    assert.deepEqual(check(tool('Write'), write(join(mem, 'a.lock'))), { allowed: false, reason: `Denied by the rule Write(/${mem}/*.lock).` });
    assert.deepEqual(check(tool('Write'), write('src/a')), { allowed: false, reason: `${join(ws, 'src', 'a')} is outside what a background agent may touch (its own folder, and what the workspace's rules let it read).` });
    assert.deepEqual(check(tool('Write'), write(join(mem, 'a.md'))), { allowed: true });
    assert.deepEqual(check(tool('Read'), read('src/a')), { allowed: true });    const mem2 = join(root, 'mem-b');
    mkdirSync(mem2, { recursive: true });
    const both = p.boundedCheck([mem, mem2], yes);
    assert.deepEqual(both(tool('Write'), write(join(mem2, 'a.md'))), { allowed: true }, 'any of its folders');
    assert.deepEqual(both(tool('Write'), write(join(mem, 'a.md'))), { allowed: true });
  });

  it('reads where a rule lets the main agent read, not where it would ask', () => {
    const mem = join(root, 'mem2');
    mkdirSync(mem, { recursive: true });
    const allowed = engine({ rules: { allow: [`Read(/${outside}/**)`] } }).p.boundedCheck([mem], yes);
    assert.equal(allowed(tool('Read'), read(join(outside, 'a'))).allowed, true);
    assert.equal(allowed(tool('Read'), read(join(root, 'elsewhere'))).allowed, false);
    const asks = engine({ rules: { ask: ['Read(src/**)'] } }).p.boundedCheck([mem], yes);
    assert.equal(asks(tool('Read'), read('src/a')).allowed, false, 'an ask rule is not an allow');
  });
});

describe('describeRules', () => {
  it('names the host’s rules by their label, and what an untrusted folder withholds', () => {
    const list: RuleSource[] = [{ label: '.claude/settings.json', project: true, allow: ['Bash'], defaultMode: 'acceptEdits' }];
    const d = engine({ rules: { allow: ['Read'] }, list, trusted: () => false, restrictedMode: () => false }).p.describeRules();
    assert.deepEqual(
      d.rules.map((r) => `${r.behavior} ${r.rule} ${r.source} ${r.active}`),
      ['allow Read Threadline settings true', 'allow Bash .claude/settings.json false'],
    );
    assert.deepEqual(d.withheld, [
      { source: '.claude/settings.json', grant: 'allow Bash' },
      { source: '.claude/settings.json', grant: 'defaultMode acceptEdits' },
    ]);
    assert.equal(d.defaultMode, undefined);
    assert.equal(engine({ rules: { allow: ['Read'] }, headless: true }).p.describeRules().rules[0]?.source, '--allowed-tools');
    assert.equal(engine({ rules: { allow: ['Read'] }, headless: true, rulesLabel: 'threadline.permissions' }).p.describeRules().rules[0]?.source, 'threadline.permissions');
    assert.deepEqual(engine({ list, trusted: () => true }).p.describeRules().withheld, []);
  });
});
