// The permission engine's decision order (deny, own process, ask, plan, Bash rules, protected
// folders, allow and grants, acceptEdits, outside, the defaults) pinned by its verdicts and the
// reasons it gives: a reason is what the user (or a headless run's log) reads to know why.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { sharedBashChecker } from '../../../src/permissions/bash/checker';
import type { RuleSource } from '../../../src/permissions/ruleSources';
import type { Tool } from '../../../src/tools/types';
import { added, bash, engine, outside, read, root, tool, write, ws } from './engineFixture';

before(() => sharedBashChecker().ready());

describe('restricted mode', () => {
  it('follows trust unless the host says otherwise, and spares only read-only calls', () => {
    const untrusted = engine({ trusted: () => false, rules: { allow: ['Write'] } });
    assert.deepEqual(untrusted.verdict('Write', write('src/a.ts')), {
      behavior: 'deny',
      reason: 'Write is not available in Restricted Mode: trust this folder to let Threadline edit files or run commands.',
    });
    assert.equal(untrusted.decide('Read', read('src/a.ts')), 'allow');
    // The CLI is never restricted: an untrusted folder still asks (its flags are the user's own).
    const cli = engine({ trusted: () => false, restrictedMode: () => false });
    assert.equal(cli.decide('Write', write('src/a.ts')), 'ask');
    assert.equal(cli.decide('Bash', bash('ls')), 'ask');
    const forced = engine({ trusted: () => true, restrictedMode: () => true, rules: { allow: ['Bash'] } });
    assert.equal(forced.decide('Bash', bash('ls')), 'deny');
  });

  it('a tool that cannot say whether a call is read-only is treated as writing', () => {
    const reader = tool('Read');
    const unsure: Tool = {
      ...reader,
      isReadOnly: () => {
        throw new Error('bad input');
      },
    };
    const { p } = engine();
    assert.equal(p.decide({ tool: reader, input: read('src/a.ts') }).behavior, 'allow');
    assert.deepEqual(p.decide({ tool: unsure, input: read('src/a.ts') }), { behavior: 'ask', reason: 'Changes files.' });
    assert.equal(engine({ trusted: () => false }).p.decide({ tool: unsure, input: read('src/a.ts') }).behavior, 'deny');
  });
});

describe('deny and ask rules', () => {
  it('a deny names its rule, and the file it came from unless it is the host’s own', () => {
    const { verdict } = engine({ rules: { deny: ['Write(src/**)'] }, list: [{ label: 'team.json', deny: ['Read(**/*.key)'] }] });
    assert.deepEqual(verdict('Write', write('src/a.ts')), { behavior: 'deny', reason: 'Denied by the rule Write(src/**).' });
    assert.deepEqual(verdict('Read', read('a.key')), { behavior: 'deny', reason: 'Denied by the rule Read(**/*.key) (team.json).' });
  });

  it('an ask rule beats an allow rule and says so; headless, that is a refusal naming the rule', () => {
    const rules = { allow: ['Write'], ask: ['Write(src/gen/**)'] };
    assert.deepEqual(engine({ rules }).verdict('Write', write('src/gen/a.ts')), { behavior: 'ask', reason: 'The rule Write(src/gen/**) asks first.' });
    assert.equal(engine({ rules }).decide('Write', write('src/a.ts')), 'allow');
    const fromFile = engine({ list: [{ label: 'team.json', ask: ['Bash'] }], rules: { allow: ['Bash'] } });
    assert.deepEqual(fromFile.verdict('Bash', bash('ls')), { behavior: 'ask', reason: 'The rule Bash (team.json) asks first.' });
    const headless = engine({ rules, headless: true }).verdict('Write', write('src/gen/a.ts'));
    assert.equal(headless.behavior, 'deny');
    assert.match(headless.reason, /^The rule Write\(src\/gen\/\*\*\) asks first\. Ask rules beat allow rules, and a headless run cannot ask;/);
  });

  it("a rule's /path is relative to the project its file belongs to", () => {
    const project = join(root, 'project');
    mkdirSync(join(project, 'data'), { recursive: true });
    const { decide } = engine({ list: [{ label: 'p.json', root: project, allow: ['Read(/data/**)'], deny: ['Write(/data/**)'] }] });
    assert.equal(decide('Read', read(join(project, 'data', 'x.csv'))), 'allow');
    assert.equal(decide('Read', read(join(ws, 'data', 'x.csv'))), 'allow', 'inside the workspace reads run anyway');
    assert.equal(decide('Write', write(join(project, 'data', 'x.csv'))), 'deny');
    assert.equal(engine({ rules: { allow: ['Write'] }, list: [{ label: 'p.json', root: project, deny: ['Write(/data/**)'] }] }).decide('Write', write('data/x.csv')), 'allow');
  });
});

describe('the agent’s own process', () => {
  it('no file tool reads its /proc entry, whatever allows it, nor through a link', () => {
    const rules = { allow: ['Read', 'Read(//**)'] };
    const own = `/proc/${process.pid}/environ`;
    assert.equal(engine({ rules }).decide('Read', read('/proc/self/environ')), 'deny');
    const v = engine({ rules }).verdict('Read', read(own));
    assert.equal(v.behavior, 'deny');
    assert.equal(v.reason, `${own} is the agent's own process (or one that started it) in /proc, which holds its API key: no tool may read it.`);
    // The link's own path says nothing; where it leads does.
    const link = join(ws, 'me');
    symlinkSync(`/proc/${process.pid}`, link);
    const linked = engine({ rules }).verdict('Read', read('me/environ'));
    assert.equal(linked.behavior, 'deny');
    assert.match(linked.reason, /me\/environ is the agent's own process/);
    // /proc/self/cwd leads to this process's folder: the path as written is what names the process.
    assert.equal(engine({ rules }).decide('Read', read('/proc/self/cwd/package.json')), 'deny');
    assert.equal(engine({ rules }).p.readable(`/proc/${process.pid}/status`), false);
    assert.equal(engine({ rules }).p.readable('/proc/self/environ'), false);
    assert.equal(engine({ rules }).p.mayShow('/proc/self/environ', '/proc'), false);
    assert.equal(engine({ rules }).p.mayShow(`/proc/${process.pid}/status`, '/proc'), false);
    assert.equal(engine({ rules }).p.mayShow('/dev/stdin', '/dev'), false);
  });

  it('no command names it, whatever allows it; a /proc path computed when it runs asks', () => {
    const { verdict } = engine({ rules: { allow: ['Bash'] } });
    const named = verdict('Bash', bash(`cat /proc/${process.pid}/environ`));
    assert.deepEqual(named, { behavior: 'deny', reason: `/proc/${process.pid}/environ is the agent's own process (or one that started it) in /proc, which holds its API key: no tool may read it.` });
    const computed = verdict('Bash', bash('cat /proc/$PPID/environ'));
    assert.equal(computed.behavior, 'ask');
    assert.match(computed.reason, /\/proc/);
    // Any command that refers to /proc asks under an allow rule, /proc/self too: the check reads
    // what a command spells, and a thread id or a glob reaches the agent's entries as easily.
    assert.equal(verdict('Bash', bash('cat /proc/self/status')).behavior, 'ask');
  });
});

describe('default modes', () => {
  it('plan: nothing that writes or runs; reads run', () => {
    const { verdict, decide } = engine({ list: [{ label: 'plan.json', defaultMode: 'plan' }], rules: { allow: ['Write', 'Bash'] } });
    assert.deepEqual(verdict('Write', write('src/a.ts')), { behavior: 'deny', reason: 'Write does not run in plan mode (defaultMode in plan.json).' });
    assert.equal(decide('Bash', bash('ls')), 'deny');
    assert.equal(decide('Read', read('src/a.ts')), 'allow');
  });

  it('dontAsk: what would ask is refused, saying which file set it; allowed calls run', () => {
    const { verdict, decide } = engine({ list: [{ label: 'quiet.json', defaultMode: 'dontAsk' }], rules: { allow: ['Bash(ls:*)'] } });
    const v = verdict('Write', write('src/a.ts'));
    assert.equal(v.behavior, 'deny');
    assert.match(v.reason, /defaultMode "dontAsk" in quiet\.json refuses what would ask/);
    assert.equal(decide('Bash', bash('ls -la')), 'allow');
    assert.equal(decide('Read', read('src/a.ts')), 'allow');
  });

  it('acceptEdits: file changes inside the workspace run, nothing else changes', () => {
    const { verdict, decide } = engine({ list: [{ label: 'edits.json', defaultMode: 'acceptEdits' }] });
    assert.deepEqual(verdict('Write', write('src/a.ts')), { behavior: 'allow', reason: 'Edits are accepted (defaultMode in edits.json).' });
    assert.equal(decide('Write', write(join(outside, 'a.ts'))), 'ask');
    assert.equal(decide('Bash', bash('touch a')), 'ask');
    assert.equal(decide('Write', write('.git/config')), 'ask');
    assert.deepEqual(verdict('Read', read('src/a.ts')), { behavior: 'allow', reason: 'Read-only.' }, 'a read is not an edit');
    const other: Tool = { ...tool('Write'), name: 'Other', traits: {} };
    assert.equal(engine({ list: [{ label: 'edits.json', defaultMode: 'acceptEdits' }] }).p.decide({ tool: other, input: write('src/a.ts') }).behavior, 'ask', 'only file tools');
  });

  it('the first source that sets a mode decides; a mode not honoured is named once and the default applies', () => {
    const first = engine({ list: [{ label: 'a.json', defaultMode: 'plan' }, { label: 'b.json', defaultMode: 'acceptEdits' }] });
    assert.equal(first.decide('Write', write('src/a.ts')), 'deny');
    assert.deepEqual(first.p.describeRules().defaultMode, { mode: 'plan', source: 'a.json' });
    const odd = engine({ list: [{ label: 'c.json', defaultMode: 'bypassPermissions' }, { label: 'd.json', defaultMode: 'plan' }] });
    assert.equal(odd.decide('Write', write('src/a.ts')), 'ask');
    odd.decide('Write', write('src/b.ts'));
    assert.deepEqual(odd.warnings, ['defaultMode "bypassPermissions" in c.json is not honoured by Threadline; the default applies']);
    assert.equal(odd.p.describeRules().defaultMode, undefined);
    const plain = engine({ list: [{ label: 'e.json', defaultMode: 'default' }] });
    assert.equal(plain.decide('Write', write('src/a.ts')), 'ask');
    assert.deepEqual(plain.warnings, []);
    assert.deepEqual(plain.p.describeRules().defaultMode, { mode: 'default', source: 'e.json' });
  });
});

describe('Bash commands', () => {
  it('an allow rule names itself and every rule it took; a rule for another tool does not count', () => {
    const { verdict } = engine({ rules: { allow: ['Bash(ls:*)', 'Bash(wc:*)', 'Read'] } });
    assert.deepEqual(verdict('Bash', bash('ls | wc -l')), { behavior: 'allow', reason: 'Allowed by Bash(ls:*), Bash(wc:*).' });
    assert.deepEqual(engine({ list: [{ label: 'team.json', allow: ['Bash(ls:*)'] }] }).verdict('Bash', bash('ls')), { behavior: 'allow', reason: 'Allowed by Bash(ls:*) (team.json).' });
    assert.equal(engine({ rules: { allow: ['Read(ls)'] } }).decide('Bash', bash('ls')), 'ask');
  });

  it('a deny rule that names its program by a path holds for the program however it is called', () => {
    const { decide } = engine({ rules: { allow: ['Bash'], deny: ['Bash(/bin/rm * /)', 'Bash(/usr/bin/git push:*)'] } });
    assert.equal(decide('Bash', bash('rm -rf /')), 'deny');
    assert.equal(decide('Bash', bash('/bin/rm -rf /')), 'deny');
    assert.equal(decide('Bash', bash('git push origin')), 'deny');
    assert.equal(decide('Bash', bash('rm -rf /tmp/x')), 'allow');
  });

  it('a deny or ask rule that may apply asks, naming the rule and why; one for another tool does not', () => {
    const { verdict } = engine({ rules: { allow: ['Bash'] }, list: [{ label: 'team.json', ask: ['Bash(rm:*)'] }] });
    const v = verdict('Bash', bash('$(echo rm) -rf x'));
    assert.equal(v.behavior, 'ask');
    assert.match(v.reason, /^The rule Bash\(rm:\*\) \(team\.json\) may apply: .+\.$/);
    // A rule for another tool is not one that may apply (the command still asks: under Bash a
    // program whose name is computed may hand a command outside its namespace, pass 89 H1).
    assert.doesNotMatch(engine({ rules: { allow: ['Bash'], deny: ['Read(rm)'] } }).verdict('Bash', bash('$(echo rm) -rf x')).reason, /Read\(rm\)/);
    assert.equal(engine({ rules: { allow: ['Bash'], deny: ['Read(rm)'] } }).decide('Bash', bash('echo rm -rf x')), 'allow');
  });

  it('a command allowed by a rule naming it asks before it reads outside the workspace or writes outside it', () => {
    const { verdict, decide } = engine({ rules: { allow: ['Bash(cat:*)', 'Bash(touch:*)'] }, list: [{ label: 'dirs', additionalDirectories: [added] }] });
    const v = verdict('Bash', bash(`cat ${join(outside, 'x')}`));
    assert.equal(v.behavior, 'ask');
    assert.ok(v.reason.includes(join(outside, 'x')), v.reason);
    assert.equal(decide('Bash', bash('cat src/a.ts')), 'allow');
    assert.equal(decide('Bash', bash(`cat ${join(added, 'x')}`)), 'allow', 'reads may go to an added folder');
    assert.equal(decide('Bash', bash(`touch ${join(added, 'x')}`)), 'ask', 'writes may not');
    // Headless, a read outside can be allowed by adding its folder; a write only by the exact command.
    const h = engine({ rules: { allow: ['Bash(cat:*)', 'Bash(touch:*)'] }, headless: true });
    assert.match(h.verdict('Bash', bash(`cat ${join(outside, 'x')}`)).reason, new RegExp(`--add-dir ${outside}`));
    assert.doesNotMatch(h.verdict('Bash', bash(`touch ${join(outside, 'x')}`)).reason, /--add-dir/);
  });

  it('a command no rule covers asks with the checker’s reason; a session grant is exactly that command', () => {
    const { p, verdict } = engine();
    const v = verdict('Bash', bash('make'));
    assert.equal(v.behavior, 'ask');
    assert.ok(v.reason.length > 0);
    p.grantForSession({ tool: tool('Bash'), input: bash('  make  ') });
    assert.deepEqual(verdict('Bash', bash('make')), { behavior: 'allow', reason: 'Allowed by Bash(make) for this session.' });
    p.grantForSession({ tool: tool('Bash'), input: bash('   ') });
    assert.equal(verdict('Bash', bash('')).behavior, 'ask', 'an empty command grants nothing');
  });
});

describe('protected folders', () => {
  it('a write inside .git/, .vscode/, .claude/ or .idea/ asks, naming the folder', () => {
    const { verdict } = engine({ rules: { allow: ['Write'] } });
    for (const d of ['.git', '.vscode', '.claude', '.idea']) {
      assert.deepEqual(verdict('Write', write(`${d}/x`)), {
        behavior: 'ask',
        reason: `${join(ws, d, 'x')} is inside ${d}/; Threadline always asks before writing there.`,
      });
    }
    assert.equal(verdict('Write', write('.github/x')).behavior, 'allow');
  });

  it('by the path as written and by where it leads, and outside the workspace too', () => {
    symlinkSync(join(ws, 'plain'), join(ws, 'sub', '.vscode'));
    symlinkSync(join(ws, '.git'), join(ws, 'gitlink'));
    const { decide } = engine({ rules: { allow: ['Write', 'Write(//**)'] } });
    assert.equal(decide('Write', write('sub/.vscode/x')), 'ask', 'named .vscode, really plain/');
    assert.equal(decide('Write', write('plain/x')), 'allow');
    assert.equal(decide('Write', write('gitlink/config')), 'ask', 'really .git/');
    assert.equal(decide('Write', write(join(outside, 'repo', '.git', 'config'))), 'ask');
    assert.equal(decide('Write', write(join(outside, 'repo', 'README.md'))), 'allow');
  });

  it("Threadline's own folders ask before a write, by real path and as written", () => {
    const state = join(root, 'state');
    mkdirSync(state, { recursive: true });
    symlinkSync(state, join(ws, 'state-link'));
    const { verdict, decide } = engine({ rules: { allow: ['Write', 'Write(//**)'] }, protectedPaths: [state] });
    assert.deepEqual(verdict('Write', write(join(state, 'sessions.json'))), {
      behavior: 'ask',
      reason: `${join(state, 'sessions.json')} is inside ${state}; Threadline always asks before writing there.`,
    });
    assert.equal(decide('Write', write('state-link/x')), 'ask', 'through a link to it');
    assert.equal(decide('Write', write(join(outside, 'x'))), 'allow');
    // A link inside it leads elsewhere, but a write through it is still a write into it.
    symlinkSync(outside, join(state, 'out'));
    assert.equal(decide('Write', write(join(state, 'out', 'x'))), 'ask');
    const byLink = engine({ rules: { allow: ['Write', 'Write(//**)'] }, protectedPaths: [join(ws, 'state-link')] });
    assert.equal(byLink.decide('Write', write(join(state, 'x'))), 'ask', 'a protected path that is a link protects where it leads');
    assert.equal(byLink.decide('Write', write('state-link/x')), 'ask');
  });
});

describe('outside the workspace and added folders', () => {
  it('reads in an added folder run, writes there ask; outside both, everything asks', () => {
    const { verdict } = engine({ list: [{ label: 'dirs', additionalDirectories: [added] }] });
    assert.deepEqual(verdict('Read', read(join(added, 'a'))), { behavior: 'allow', reason: 'Read-only, in an added folder.' });
    assert.deepEqual(verdict('Write', write(join(added, 'a'))), { behavior: 'ask', reason: `${join(added, 'a')} is in an added folder, where writes ask.` });
    assert.deepEqual(verdict('Read', read(join(outside, 'a'))), { behavior: 'ask', reason: `${join(outside, 'a')} is outside the workspace.` });
    assert.deepEqual(verdict('Read', read('src/a')), { behavior: 'allow', reason: 'Read-only.' });
    assert.deepEqual(verdict('Write', write('src/a')), { behavior: 'ask', reason: 'Changes files.' });
  });

  it('an added folder is relative to the workspace; one from a project file is ignored with a warning', () => {
    const rel = engine({ list: [{ label: 'dirs', additionalDirectories: ['../added'] }] });
    assert.equal(rel.decide('Read', read(join(added, 'a'))), 'allow');
    assert.deepEqual(rel.p.describeRules().directories, [{ dir: added, source: 'dirs' }]);
    const project = engine({ list: [{ label: 'proj.json', project: true, additionalDirectories: [added] }] });
    assert.equal(project.decide('Read', read(join(added, 'a'))), 'ask');
    assert.deepEqual(project.warnings, ['additionalDirectories in proj.json are ignored: a project file may not open folders outside itself']);
    assert.deepEqual(project.p.describeRules().directories, []);
    assert.deepEqual(engine({ list: [{ label: 'proj.json', project: true, additionalDirectories: [] }] }).warnings, []);
    assert.deepEqual(engine({ list: [{ label: 'user.json', allow: ['Read'] }] }).p.describeRules().directories, []);
  });

  it('outside, only a rule naming the path reaches; it names the rule', () => {
    const target = join(outside, 'a.txt');
    assert.equal(engine({ rules: { allow: ['Read'] } }).decide('Read', read(target)), 'ask');
    assert.deepEqual(engine({ rules: { allow: [`Read(/${outside}/**)`] } }).verdict('Read', read(target)), { behavior: 'allow', reason: `Allowed by Read(/${outside}/**).` });
    assert.equal(engine({ rules: { allow: [`Read(/${outside}/**)`] } }).decide('Read', read(join(root, 'elsewhere'))), 'ask');
    // Inside the workspace a tool-wide rule reaches.
    assert.deepEqual(engine({ rules: { allow: ['Write'] } }).verdict('Write', write('src/a')), { behavior: 'allow', reason: 'Allowed by Write.' });
  });

  it('a project file may allow inside the project, not outside it, and says which rule it dropped', () => {
    const list: RuleSource[] = [{ label: 'proj.json', project: true, allow: ['Write(src/**)', `Read(/${outside}/**)`] }];
    const { decide, warnings } = engine({ list });
    assert.equal(decide('Write', write('src/a')), 'allow');
    assert.equal(decide('Read', read(join(outside, 'a'))), 'ask');
    assert.deepEqual(warnings, [`Read(/${outside}/**) in proj.json is ignored: a project file may not allow paths outside the project`]);
    // The same rule from the user's own file applies.
    assert.equal(engine({ list: [{ label: 'user.json', allow: [`Read(/${outside}/**)`] }] }).decide('Read', read(join(outside, 'a'))), 'allow');
    // Deny rules from a project file are kept whatever they name.
    assert.equal(engine({ list: [{ label: 'proj.json', project: true, deny: [`Read(/${outside}/**)`] }], rules: { allow: [`Read(/${outside}/**)`] } }).decide('Read', read(join(outside, 'a'))), 'deny');
  });
});
