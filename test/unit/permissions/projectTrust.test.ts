import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Permissions } from '../../../src/permissions/permissions';
import { describeSources } from '../../../src/permissions/ruleSources';
import { createTools } from '../../../src/tools/builtin';
import { applicablePart, describeWithheld, projectMayAllow, withheldGrants, type RuleSource } from '../../../src/permissions/projectTrust';
import type { Tool } from '../../../src/tools/types';

const project: RuleSource = {
  label: '.claude/settings.json',
  project: true,
  allow: ['Bash', 'Read(//etc/**)', 'Edit(src/**)'],
  ask: ['Write'],
  deny: ['Bash(rm:*)'],
  additionalDirectories: ['/srv'],
  defaultMode: 'acceptEdits',
};

describe('what a project file may do', () => {
  it('untrusted: only what restricts applies; trusted: all of it; the user\'s own files always', () => {
    assert.deepEqual(applicablePart(project, false), { label: '.claude/settings.json', project: true, ask: ['Write'], deny: ['Bash(rm:*)'] });
    assert.equal(applicablePart(project, true), project);
    const user: RuleSource = { label: '~/.claude/settings.json', allow: ['Bash'], defaultMode: 'acceptEdits' };
    assert.equal(applicablePart(user, false), user);
    for (const mode of ['plan', 'dontAsk', 'default']) assert.equal(applicablePart({ label: 'p', project: true, defaultMode: mode }, false).defaultMode, mode);
    for (const mode of ['bypassPermissions', 'acceptEdits', 'AcceptEdits', 'acceptEdits ']) assert.equal(applicablePart({ label: 'p', project: true, defaultMode: mode }, false).defaultMode, undefined, mode);
  });

  it('names what trust would add: allow rules that can ever apply, and acceptEdits', () => {
    const w = withheldGrants([project, { label: '.claude/settings.local.json', project: true, allow: ['Write'] }, { label: 'user', allow: ['Edit'] }], false);
    assert.deepEqual(w.map((x) => `${x.source}: ${x.grant}`), ['.claude/settings.json: allow Bash', '.claude/settings.json: allow Edit(src/**)', '.claude/settings.json: defaultMode acceptEdits', '.claude/settings.local.json: allow Write']);
    assert.equal(describeWithheld(w), 'from .claude/settings.json: allow Bash, allow Edit(src/**), defaultMode acceptEdits; from .claude/settings.local.json: allow Write');
    assert.deepEqual(withheldGrants([project], true), []);
    assert.equal(projectMayAllow({ tool: 'Read', pattern: '~/.ssh/**' }), false);
    assert.equal(projectMayAllow({ tool: 'Edit', pattern: 'src/../../x' }), false);
    // An exact rule judges no file for being outside, so the project may not write one that names a file there (pass 51 N2).
    assert.equal(projectMayAllow({ tool: 'Bash', pattern: 'cat ~/.ssh/id_rsa' }), false);
    assert.equal(projectMayAllow({ tool: 'Bash', pattern: 'npm test:*' }), true);
  });

  it('describeSources marks exactly the withheld rules as not applied', () => {
    const rules = describeSources([project], false);
    assert.deepEqual(rules.filter((r) => !r.active).map((r) => r.rule), ['Bash', 'Read(//etc/**)', 'Edit(src/**)']);
    assert.ok(describeSources([project], true).every((r) => r.active));
  });
});

describe('Restricted Mode is a separate question from trust', () => {
  const bash = createTools().find((t) => t.name === 'Bash') as Tool;
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'tl-rm-')));
  const engine = (restrictedMode?: () => boolean) =>
    new Permissions({ cwd, rules: () => ({ allow: ['Bash(echo:*)'], ask: [], deny: [] }), trusted: () => false, ...(restrictedMode ? { restrictedMode } : {}) });

  it("VS Code (the default): an untrusted folder runs nothing that writes or executes, whatever the user's rules", async () => {
    const p = engine();
    await p.ready();
    const v = p.decide({ tool: bash, input: { command: 'echo hi' } });
    assert.equal(v.behavior, 'deny');
    assert.match(v.reason ?? '', /Restricted Mode/);
  });

  it("the CLI: an untrusted folder still runs what the user's own flags allow", async () => {
    const p = engine(() => false);
    await p.ready();
    assert.equal(p.decide({ tool: bash, input: { command: 'echo hi' } }).behavior, 'allow');
  });
});
