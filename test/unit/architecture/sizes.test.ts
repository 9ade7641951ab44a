import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const root = resolve(__dirname, '../../..');
const LIMIT = 300;
const MARK = 'Why this file is long:';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const lines = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

// Issue 17: files small enough to read in one sitting, and a composition root that only wires.
describe('file and function sizes', () => {
  it(`every source file is under ${LIMIT} lines, or says at its top why not`, () => {
    const over = [...sources(join(root, 'src')), ...sources(join(root, 'webview-ui', 'src'))]
      .map((f) => ({ f: relative(root, f), text: readFileSync(f, 'utf8') }))
      .filter(({ text }) => lines(text) > LIMIT && !text.slice(0, 400).includes(MARK))
      .map(({ f, text }) => `${f} (${lines(text)} lines)`);
    assert.deepEqual(over, [], `over ${LIMIT} lines with no "${MARK}" comment at the top`);
  });

  it('agent.ts and extension.ts are under 300 lines with no exception', () => {
    for (const f of ['src/agent/agent.ts', 'src/extension.ts']) {
      const n = lines(readFileSync(join(root, f), 'utf8'));
      assert.ok(n < LIMIT, `${f} has ${n} lines`);
    }
  });

  it('activate() is under 80 lines', () => {
    const file = join(root, 'src/extension.ts');
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const fn = sf.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === 'activate');
    assert.ok(fn, 'src/extension.ts exports activate()');
    const n = sf.getLineAndCharacterOfPosition(fn.getEnd()).line - sf.getLineAndCharacterOfPosition(fn.getStart()).line + 1;
    assert.ok(n < 80, `activate() has ${n} lines`);
  });
});
