// How a rule's pattern names paths (gitignore style, as Claude Code's Read and Edit rules) and
// which calls a rule speaks for: the matching every permission decision rests on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePathPattern, pathPatternMatches, ruleForPath, under } from '../../../src/permissions/pathRules';
import { parseRule, ruleCovers, ruleMatches, RuleSyntaxError } from '../../../src/permissions/permissions';
import { bashCommand, isFileTool, patternMatches } from '../../../src/permissions/ruleMatch';
import { createTools } from '../../../src/tools/builtin';
import type { Tool } from '../../../src/tools/types';

const ctx = { cwd: '/w/ws', home: '/h/me' };
const tools = new Map(createTools().map((t) => [t.name, t as Tool]));
const tool = (name: string) => tools.get(name)!;

describe('parsePathPattern', () => {
  it('//abs is absolute, ~ the home folder, /path the rule root, anything else the workspace', () => {
    assert.deepEqual(parsePathPattern('//etc/hosts', ctx), { kind: 'absolute', glob: '/etc/hosts' });
    assert.deepEqual(parsePathPattern('~/.ssh/**', ctx), { kind: 'absolute', glob: '/h/me/.ssh/**' });
    assert.deepEqual(parsePathPattern('~', ctx), { kind: 'absolute', glob: '/h/me' });
    assert.deepEqual(parsePathPattern('~', { ...ctx, home: '/h/me/' }), { kind: 'absolute', glob: '/h/me' }, 'a home with a trailing slash');
    assert.deepEqual(parsePathPattern('~user/x', ctx), { kind: 'relative', glob: '~user/x', root: '/w/ws' }, '~user is not the home folder');
    assert.deepEqual(parsePathPattern('/src/**', ctx), { kind: 'rooted', glob: 'src/**', root: '/w/ws' });
    assert.deepEqual(parsePathPattern('/src/**', ctx, '/p'), { kind: 'rooted', glob: 'src/**', root: '/p' });
    assert.deepEqual(parsePathPattern('  ././src/*.ts ', ctx, '/p'), { kind: 'relative', glob: 'src/*.ts', root: '/w/ws' }, 'relative stays on the workspace');
    assert.deepEqual(parsePathPattern('a/./b', ctx), { kind: 'relative', glob: 'a/b', root: '/w/ws' }, 'paths are matched in their plain form, and so are rules (pass 52 L2)');
  });
});

describe('pathPatternMatches', () => {
  const m = (pattern: string, abs: string, wide = false, root?: string) => pathPatternMatches(parsePathPattern(pattern, ctx, root), abs, wide);

  it('a bare name matches at any depth below the workspace, never outside it', () => {
    assert.equal(m('*.md', '/w/ws/README.md'), true);
    assert.equal(m('*.md', '/w/ws/docs/deep/a.md'), true);
    assert.equal(m('*.md', '/w/other/a.md'), false);
    assert.equal(m('*.md', '/w/ws/a.mdx'), false);
    assert.equal(m('.env', '/w/ws/config/.env'), true);
  });

  it('a pattern with a slash is anchored at its root', () => {
    assert.equal(m('src/*.ts', '/w/ws/src/a.ts'), true);
    assert.equal(m('src/*.ts', '/w/ws/lib/src/a.ts'), false);
    assert.equal(m('src/*.ts', '/w/ws/src/deep/a.ts'), false);
    assert.equal(m('/src/*.ts', '/p/src/a.ts', false, '/p'), true);
    assert.equal(m('/src/*.ts', '/w/ws/src/a.ts', false, '/p'), false);
  });

  it('a pattern naming a folder covers what is in it, with or without a trailing slash', () => {
    assert.equal(m('build', '/w/ws/build/out/a.js'), true);
    assert.equal(m('src/gen/', '/w/ws/src/gen/a.ts'), true);
    assert.equal(m('src/gen', '/w/ws/src/generated.ts'), false);
    assert.equal(m('//etc', '/etc/passwd'), true);
    assert.equal(m('//etc/', '/etc'), true);
    assert.equal(m('//etc', '/etcetera'), false);
    assert.equal(m('~/.ssh', '/h/me/.ssh/id_rsa'), true);
    assert.equal(m('~/.ssh/**', '/h/me/.ssh/keys/id_rsa'), true);
    assert.equal(m('~/.ssh', '/h/other/.ssh/id_rsa'), false);
  });

  it('the root itself matches only ** (or nothing after the slash)', () => {
    assert.equal(m('**', '/w/ws'), true);
    assert.equal(m('/', '/p', false, '/p'), true);
    assert.equal(m('src', '/w/ws'), false);
    assert.equal(m('*', '/w/ws'), false);
  });

  it('wide (deny and ask) also reads /path as absolute; allow keeps the reference reading', () => {
    assert.equal(m('/etc/passwd', '/etc/passwd', true), true);
    assert.equal(m('/etc/passwd', '/etc/passwd', false), false);
    assert.equal(m('/etc/**', '/etc/ssh/x', true), true);
    assert.equal(m('/src/a.ts', '/w/ws/src/a.ts', true), true, 'and still as rooted');
    assert.equal(m('etc/passwd', '/etc/passwd', true), false, 'a relative pattern is never absolute');
  });
});

describe('under and ruleForPath', () => {
  it('under gives the path below a root in / form, "" for the root, undefined outside', () => {
    assert.equal(under('/w/ws', '/w/ws/src/a.ts'), 'src/a.ts');
    assert.equal(under('/w/ws', '/w/ws'), '');
    assert.equal(under('/w/ws', '/w/ws2/a'), undefined);
    assert.equal(under('/w/ws', '/w'), undefined);
    assert.equal(under('/w/ws', '/w/other/x'), undefined);
    assert.equal(under('/w/ws', '/w/ws/..a/b'), '..a/b', 'a name that starts with two dots is inside');
  });

  it('names the rule that allows exactly a path: relative inside, ~/ in the home folder, //abs elsewhere', () => {
    assert.equal(ruleForPath('Read', '/w/ws/src/a.ts', ctx), 'Read(src/a.ts)');
    assert.equal(ruleForPath('Read', '/h/me/notes.md', ctx), 'Read(~/notes.md)');
    assert.equal(ruleForPath('Edit', '/etc/hosts', ctx), 'Edit(//etc/hosts)');
    assert.equal(ruleForPath('Read', '/w/ws', ctx), 'Read(//w/ws)');
    assert.equal(ruleForPath('Read', '/h/me', ctx), 'Read(//h/me)');
    // The rule it names allows the path.
    for (const p of ['/w/ws/src/a.ts', '/h/me/notes.md', '/etc/hosts']) {
      const rule = parseRule(ruleForPath('Read', p, ctx));
      assert.equal(patternMatches(rule, p, 'allow', ctx), true, p);
    }
  });
});

describe('rules', () => {
  it('parses Tool and Tool(pattern); * and an empty pattern mean every call', () => {
    assert.deepEqual(parseRule('  Bash(npm test:*) '), { tool: 'Bash', pattern: 'npm test:*', source: '  Bash(npm test:*) ' });
    assert.equal(parseRule('Bash()').pattern, undefined);
    assert.equal(parseRule('Bash( * )').pattern, undefined);
    assert.equal(parseRule('mcp__db-server__query').tool, 'mcp__db-server__query');
    assert.equal(parseRule('Bash(echo (a))').pattern, 'echo (a)');
    assert.equal(parseRule('Bash(echo\na)').pattern, 'echo\na', 'a pattern may span lines');
    for (const bad of ['1Bash', 'Bash(x', 'Bash x', 'Ba sh', '(x)', 'Bash(x)y']) {
      assert.throws(() => parseRule(bad), (e: unknown) => e instanceof RuleSyntaxError && e.message === `not a permission rule: ${JSON.stringify(bad)} (expected Tool or Tool(pattern))`, bad);
    }
  });

  it('an Edit rule covers every tool that writes files; a Write deny covers Edit; a Read rule the tools that read', () => {
    assert.equal(ruleCovers('Edit', tool('Write')), true);
    assert.equal(ruleCovers('Edit', tool('Edit')), true);
    assert.equal(ruleCovers('Write', tool('Edit')), false, 'a Write allow is not an Edit allow');
    assert.equal(ruleCovers('Write', tool('Edit'), 'deny'), true);
    assert.equal(ruleCovers('Write', tool('Edit'), 'ask'), true);
    assert.equal(ruleCovers('Write', tool('Read'), 'deny'), false);
    assert.equal(ruleCovers('Edit', tool('Bash'), 'deny'), false);
    assert.equal(ruleCovers('Read', tool('Grep')), true);
    assert.equal(ruleCovers('Read', tool('Glob')), true);
    assert.equal(ruleCovers('Read', tool('Write')), false);
    assert.equal(ruleCovers('Grep', tool('Read')), false);
    assert.equal(ruleCovers('Bash', tool('Bash')), true);
  });

  it('file tools are known by their traits; a command is read from the input only when it is text', () => {
    assert.equal(isFileTool(tool('Read')), true);
    assert.equal(isFileTool(tool('Write')), true);
    assert.equal(isFileTool(tool('Bash')), false);
    assert.equal(bashCommand({ command: 'ls' }), 'ls');
    assert.equal(bashCommand({ command: 3 }), '');
    assert.equal(bashCommand(null), '');
    assert.equal(bashCommand(undefined), '');
  });

  it('a session grant matches its exact path only', () => {
    const grant = { tool: 'Read', pattern: '/w/x/a.md', exact: true, source: 'g' };
    assert.equal(patternMatches(grant, '/w/x/a.md', 'allow', ctx), true);
    assert.equal(patternMatches(grant, '/w/x/a.md/b', 'allow', ctx), false);
    assert.equal(patternMatches({ ...grant, exact: false }, '/w/x/a.md/b', 'allow', { ...ctx, cwd: '/w/x' }), false, 'as a pattern it would be rooted elsewhere');
  });

  it('an allow rule must name every path a call touches; a deny rule any of them, as written or real', () => {
    const cwd = '/w/ws';
    const grep = tool('Grep');
    const two = [
      { lexical: '/w/ws/src', real: '/w/ws/src' },
      { lexical: '/w/ws/link', real: '/w/elsewhere' },
    ];
    const rule = parseRule('Read(src/**)');
    assert.equal(ruleMatches(rule, grep, {}, cwd, 'allow', undefined, ctx, two), false);
    assert.equal(ruleMatches(rule, grep, {}, cwd, 'allow', undefined, ctx, [two[0]!]), true);
    assert.equal(ruleMatches(rule, grep, {}, cwd, 'deny', undefined, ctx, two), true);
    const byName = parseRule('Read(link)');
    assert.equal(ruleMatches(byName, grep, {}, cwd, 'deny', undefined, ctx, [two[1]!]), true, 'a deny catches the path as written');
    assert.equal(ruleMatches(byName, grep, {}, cwd, 'allow', undefined, ctx, [two[1]!]), false, 'an allow needs the real path');
    assert.equal(ruleMatches(rule, grep, {}, cwd, 'deny', undefined, ctx, []), false, 'a call that names no path matches no path rule');
    assert.equal(ruleMatches(parseRule('Read'), grep, {}, cwd, 'deny', undefined, ctx, []), true, 'a tool-wide rule matches it');
    assert.equal(ruleMatches(parseRule('Edit(src/**)'), grep, {}, cwd, 'deny', undefined, ctx, two), false, 'a rule for another tool');
  });

  it('a path rule never matches a tool that is neither a file tool nor a shell', () => {
    const other: Tool = { ...tool('Read'), name: 'Other', traits: {} };
    assert.equal(ruleMatches(parseRule('Other(x)'), other, { file_path: 'x' }, '/w/ws', 'deny'), false);
    assert.equal(ruleMatches(parseRule('Other'), other, { file_path: 'x' }, '/w/ws', 'deny'), true);
  });
});

// Pass 52 L2: a rule spelled with `.`, `..` or `//` parts matched nothing, while listed as in force.
describe('a rule spelled with ., .. or empty parts names the paths its plain form names', () => {
  it('deny rules so spelled hold, and one climbing above the workspace names that folder', () => {
    const ctx = { cwd: '/ws', home: '/home/u' };
    const cases: Array<[string, string]> = [
      ['.//secrets/**', '/ws/secrets/deep/s.txt'],
      ['/secrets/./deep/**', '/ws/secrets/deep/s.txt'],
      ['secrets/deep/../deep/**', '/ws/secrets/deep/s.txt'],
      ['//ws/*/./deep/*', '/ws/secrets/deep/s.txt'],
      ['~/.ssh/./id_rsa', '/home/u/.ssh/id_rsa'],
      ['../other/.env', '/other/.env'],
    ];
    for (const [rule, path] of cases) assert.equal(pathPatternMatches(parsePathPattern(rule, ctx), path, true), true, `${rule} ${path}`);
    assert.equal(pathPatternMatches(parsePathPattern('secrets/../x', ctx), '/ws/secrets/x', true), false, 'the workspace\'s x, not an x at any depth');
    assert.equal(pathPatternMatches(parsePathPattern('secrets/../x', ctx), '/ws/x', true), true);
  });
});
