// The permission engine's decision order (deny, own process, ask, plan, Bash rules, protected
// folders, allow and grants, acceptEdits, outside, the defaults) pinned by its verdicts and the
// reasons it gives: a reason is what the user (or a headless run's log) reads to know why.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { sharedBashChecker } from '../../../src/agent/bash/checker';
import { Permissions, type PermissionOptions, type PermissionRules } from '../../../src/agent/permissions';
import type { RuleSource } from '../../../src/agent/ruleSources';
import { createTools } from '../../../src/agent/tools';
import type { Tool } from '../../../src/tools/types';

before(() => sharedBashChecker().ready());

const tools = new Map(createTools().map((t) => [t.name, t as Tool]));
const tool = (name: string) => tools.get(name)!;

// Real paths: the engine names files by where they really are (tmpdir may be a link).
const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-order-')));
const ws = join(root, 'ws');
const outside = join(root, 'outside');
const added = join(root, 'added');
for (const d of [join(ws, 'src'), join(ws, 'plain'), join(ws, 'sub'), join(ws, '.git'), outside, added, join(outside, 'repo', '.git')]) mkdirSync(d, { recursive: true });

type Opts = Partial<Omit<PermissionOptions, 'rules' | 'cwd'>> & { rules?: Partial<PermissionRules>; list?: RuleSource[] };

function engine(o: Opts = {}) {
  const warnings: string[] = [];
  const { rules, list, ...rest } = o;
  const p = new Permissions(
    {
      cwd: ws,
      rules: () => ({ allow: [], ask: [], deny: [], ...rules }),
      trusted: () => true,
      ...(list ? { sources: () => list } : {}),
      ...rest,
    },
    (m) => warnings.push(m),
  );
  const verdict = (name: string, input: unknown) => p.decide({ tool: tool(name), input });
  const decide = (name: string, input: unknown) => verdict(name, input).behavior;
  return { p, verdict, decide, warnings };
}

const read = (file_path: string) => ({ file_path });
const write = (file_path: string) => ({ file_path, content: 'x' });
const bash = (command: string) => ({ command });

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
    assert.match(computed.reason, /^A path in \/proc computed when it runs \(\/proc\/\$PPID\/environ\)/);
    // A command's /proc/self is its own process, not the agent's.
    assert.equal(verdict('Bash', bash('cat /proc/self/status')).behavior, 'allow');
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
    assert.equal(engine({ rules: { allow: ['Bash'], deny: ['Read(rm)'] } }).decide('Bash', bash('$(echo rm) -rf x')), 'allow');
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
    assert.deepEqual(verdict('Write', write('src/b')), { behavior: 'allow', reason: 'Allowed by Write for this session.' });
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
