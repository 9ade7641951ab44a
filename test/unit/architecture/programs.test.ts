// Which program a name starts is decided in one place (src/base/programs.ts): on PATH's absolute
// entries only. Three modules each looked programs up their own way, and two of them let a
// relative PATH entry find the workspace's `bash` and `perl` (pass 30, F1). This fails when a
// module starts a process by a bare name, or builds an environment for a child other than
// through childEnv or programs.ts, or reads PATH's entries itself.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const root = resolve(__dirname, '../../..');
const SPAWNERS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork', 'exec', 'execSync']);
/** Modules that may read PATH's entries: the lookup, and MCP's, which judges what execvp would do. */
const PATH_READERS = new Set(['src/base/programs.ts', 'src/mcp/config/command.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Calls of node:child_process that start a process by a name spelled in the code, or through a shell. */
export function bareSpawns(text: string): string[] {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  // The names this file gives child_process's functions, and its namespace imports.
  const named = new Map<string, string>();
  const namespaces = new Set<string>();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !/^(node:)?child_process$/.test(st.moduleSpecifier.text)) continue;
    const b = st.importClause?.namedBindings;
    if (b && ts.isNamespaceImport(b)) namespaces.add(b.name.text);
    if (b && ts.isNamedImports(b)) for (const e of b.elements) named.set(e.name.text, (e.propertyName ?? e.name).text);
    if (st.importClause?.name) namespaces.add(st.importClause.name.text);
  }
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const e = node.expression;
      const callee = ts.isIdentifier(e) ? named.get(e.text) : ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && namespaces.has(e.expression.text) ? e.name.text : undefined;
      if (callee && SPAWNERS.has(callee)) {
        const first = node.arguments[0];
        if (callee === 'exec' || callee === 'execSync') found.push(`${callee}(…): runs a shell string`);
        else if (first && (ts.isStringLiteralLike(first) || ts.isTemplateExpression(first))) found.push(`${callee}(${first.getText(sf)})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Code that splits a PATH value into its entries. */
export function readsPathEntries(text: string): boolean {
  return /\bPATH\b[^\n]*\.split\(|\.split\((?:delimiter|path\.delimiter|':')\)/.test(text) && /\bPATH\b/.test(text);
}

describe('one module decides which program a name starts', () => {
  it('no module starts a process by a bare name or through a shell string', () => {
    const offenders = sources(join(root, 'src')).flatMap((f) => bareSpawns(readFileSync(f, 'utf8')).map((s) => `${relative(root, f)}: ${s}`));
    assert.deepEqual(offenders, []);
  });

  it("no module but programs.ts (and MCP's execvp judge) reads PATH's entries", () => {
    const offenders = sources(join(root, 'src'))
      .map((f) => relative(root, f))
      .filter((f) => !PATH_READERS.has(f) && readsPathEntries(readFileSync(join(root, f), 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('the checks catch what they look for', () => {
    const cp = "import { spawnSync, execSync, spawn as start } from 'node:child_process';\nimport * as child_process from 'child_process';\n";
    assert.deepEqual(bareSpawns(`${cp}spawnSync('bash', ['-c', s], { env });`), ["spawnSync('bash')"]);
    assert.deepEqual(bareSpawns(`${cp}child_process.spawn(\`git\`, []);`), ['spawn(`git`)']);
    assert.deepEqual(bareSpawns(`${cp}start('perl', []);`), ["spawn('perl')"]);
    assert.deepEqual(bareSpawns(`${cp}execSync('ls');`), ['execSync(…): runs a shell string']);
    assert.deepEqual(bareSpawns(`${cp}spawn(findProgram('git')!, []); /x/.exec('y');`), []);
    assert.ok(readsPathEntries("for (const dir of (process.env.PATH ?? '').split(delimiter)) {}"));
    assert.ok(!readsPathEntries("const parts = name.split('/');"));
  });
});
