// Git expands a path value before it opens it (`~/`, `~user/`, `%(prefix)/`, `:(optional)`). Two
// modules reading those rules each their own way is how an include the guard never followed came
// to define drivers git ran. So one module (src/tools/gitPath.ts) reads them, and this fails when
// another module's code spells one of git's path marks itself.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const root = resolve(__dirname, '../../..');
const OWNER = 'src/tools/gitPath.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/**
 * The literals (strings, templates, regular expressions) of a source text that spell one of git's
 * path marks. `%(prefix)` and `:(optional)` mean nothing outside git, so they count in any module;
 * a leading `~` counts in modules about git (named git*), since shell words have a `~` of their own.
 */
function gitPathMarks(text: string, aboutGit: boolean): string[] {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let literal: string | undefined;
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) literal = node.text;
    else if (ts.isRegularExpressionLiteral(node)) literal = node.text.slice(1, node.text.lastIndexOf('/')).replace(/^\^/, '').replace(/\\\//g, '/');
    if (literal !== undefined && (/%\(prefix\)|:\(optional\)/.test(literal) || (aboutGit && /^~(\/|$)/.test(literal)))) found.push(literal);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('one module reads git path values', () => {
  it("no module but gitPath.ts spells git's path marks (~/, ~user, %(prefix)/, :(optional))", () => {
    const offenders = sources(join(root, 'src'))
      .map((f) => relative(root, f))
      .filter((f) => f !== OWNER)
      .flatMap((f) => gitPathMarks(readFileSync(join(root, f), 'utf8'), /^git/i.test(basename(f))).map((m) => `${f}: ${JSON.stringify(m)}`));
    assert.deepEqual(offenders, []);
  });

  it('the check catches the spellings a reader of its own would use, and not comments', () => {
    assert.deepEqual(gitPathMarks("const home = (p: string) => p.startsWith('~/') ? 1 : 0;", true), ['~/']);
    assert.deepEqual(gitPathMarks('const t = (v: string) => v === "~";', true), ['~']);
    assert.deepEqual(gitPathMarks('const r = /^~\\//;', true), ['~/']);
    assert.deepEqual(gitPathMarks('const p = `%(prefix)/${x}`;', false), ['%(prefix)/']);
    assert.deepEqual(gitPathMarks("const o = ':(optional)';", false), [':(optional)']);
    assert.deepEqual(gitPathMarks("// git reads `~/` and `%(prefix)/`\nconst a = 'x~/y';", true), []);
    assert.deepEqual(gitPathMarks("const shell = (w: string) => w.startsWith('~/');", false), []);
    assert.ok(gitPathMarks(readFileSync(join(root, OWNER), 'utf8'), true).length > 0, 'the owner itself spells them');
  });
});
