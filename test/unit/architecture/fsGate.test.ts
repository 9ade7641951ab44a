// The file-system gate is only a gate if nothing walks around it: both halves of `npm run lint`
// (eslint and dependency-cruiser) must fail on a module outside src/fs/ that touches the file
// system itself, and pass the gate's own modules.
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { depcruise } from '../../support/depcruise';

const root = resolve(__dirname, '../../..');

const STRAY_READ = "import { readFileSync } from 'node:fs';\nexport const secret = (p: string): string => readFileSync(p, 'utf8');\n";

let eslint: ESLint | undefined;
/** The project's eslint configuration, on a source file at `path` of the repository. */
async function lint(path: string, text: string): Promise<string[]> {
  eslint ??= new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.mjs') });
  const [result] = await eslint.lintText(text, { filePath: join(root, path) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint confines file access to the gate (src/fs/)', () => {
  it('dependency-cruiser fails a stray node:fs read outside src/fs, naming the rule, and passes the gate itself', () => {
    const r = depcruise({ 'src/tools/stray.ts': STRAY_READ, 'src/fs/read.ts': STRAY_READ });
    assert.notEqual(r.status, 0, r.out);
    assert.match(r.out, /file-system-only-through-the-gate: src\/tools\/stray\.ts → (node:)?fs\b/);
    assert.doesNotMatch(r.out, /src\/fs\/read\.ts →/);
  });

  it('dependency-cruiser also sees require, a dynamic import, fs/promises and the raw writers', () => {
    const r = depcruise({
      'src/memory/a.ts': "const fs = require('fs');\nexport const a = fs;\n",
      'src/sessions/b.ts': "export const b = () => import('node:fs/promises');\n",
      'src/cli/c.ts': "import writeFileAtomic from 'write-file-atomic';\nexport const c = writeFileAtomic;\n",
      'src/agent/d.ts': "import { fdir } from 'fdir';\nexport const d = fdir;\n",
    });
    assert.notEqual(r.status, 0);
    for (const from of ['src/memory/a.ts', 'src/sessions/b.ts', 'src/cli/c.ts', 'src/agent/d.ts']) assert.match(r.out, new RegExp(`file-system-only-through-the-gate: ${from.replace(/[./]/g, '\\$&')}`), r.out);
  });

  it('eslint fails a stray node:fs read in any layer outside src/fs, and passes it inside', async () => {
    for (const path of ['src/tools/stray.ts', 'src/context/stray.ts', 'src/vscode/stray.ts', 'src/extension.ts', 'src/base/frontmatter.ts']) {
      const messages = await lint(path, STRAY_READ);
      assert.ok(messages.some((m) => m.startsWith('no-restricted-imports:') && /file-system gate/.test(m)), `${path}: ${messages.join('; ')}`);
    }
    for (const spec of ['fs', 'fs/promises', 'node:fs/promises', 'write-file-atomic', 'proper-lockfile', 'fdir']) {
      const messages = await lint('src/memory/stray.ts', `import * as x from '${spec}';\nexport const y = x;\n`);
      assert.ok(messages.some((m) => m.startsWith('no-restricted-imports:')), `${spec}: ${messages.join('; ')}`);
    }
    assert.deepEqual(await lint('src/fs/stray.ts', STRAY_READ), []);
  });

  it('eslint fails a hand-written containment test (path.relative) outside src/fs', async () => {
    const stray = "import { relative } from 'node:path';\nexport const inside = (a: string, b: string) => !relative(a, b).startsWith('..');\n";
    for (const path of ['src/tools/stray.ts', 'src/permissions/stray.ts', 'src/vscode/stray.ts']) {
      const messages = await lint(path, stray);
      assert.ok(messages.some((m) => m.startsWith('no-restricted-imports:') && /src\/fs\/paths\.ts/.test(m)), `${path}: ${messages.join('; ')}`);
    }
    assert.deepEqual(await lint('src/fs/stray.ts', stray), []);
  });

  it('eslint fails path.join, resolve or normalize on a shell word in the modules that read Bash words, and passes kernelJoin', async () => {
    const strays = [
      "import { join } from 'node:path';\nexport const at = (cwd: string, word: string) => join(cwd, word);\n",
      "import { resolve } from 'path';\nexport const at = (cwd: string, word: string) => resolve(cwd, word);\n",
      "import { posix } from 'node:path';\nexport const at = (word: string) => posix.normalize(word);\n",
      "import * as path from 'node:path';\nexport const at = (cwd: string, word: string) => path.join(cwd, word);\n",
    ];
    for (const path of ['src/permissions/bashPaths.ts', 'src/permissions/bashProc.ts', 'src/permissions/bash/words.ts', 'src/permissions/bash/newModule.ts']) {
      for (const stray of strays) {
        const messages = await lint(path, stray);
        assert.ok(messages.some((m) => /kernelJoin/.test(m)), `${path}: ${stray}: ${messages.join('; ')}`);
      }
    }
    const kernel = "import { kernelJoin } from '../fs/paths';\nexport const at = (cwd: string, word: string) => kernelJoin(cwd, word);\n";
    assert.deepEqual(await lint('src/permissions/bashPaths.ts', kernel), []);
    // Elsewhere a join is a join.
    assert.deepEqual(await lint('src/permissions/stray.ts', strays[0]!), []);
  });

  it('the other import rules still hold where the gate rule was added (vscode, gray-matter)', async () => {
    assert.ok((await lint('src/fs/stray.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n")).some((m) => m.startsWith('no-restricted-imports:')));
    assert.ok((await lint('src/vscode/stray.ts', "import matter from 'gray-matter';\nexport const m = matter;\n")).some((m) => m.startsWith('no-restricted-imports:')));
  });
});
