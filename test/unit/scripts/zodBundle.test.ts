import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { zodWithoutLocales } from '../../../scripts/zodWithoutLocales.mjs';

const root = join(import.meta.dirname, '..', '..', '..');

/** Bundles a small program that uses zod the way src/ does, and runs it. */
async function bundled(plugins: typeof zodWithoutLocales[]) {
  const dir = mkdtempSync(join(tmpdir(), 'tl-zod-'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `import { z } from 'zod';
     const r = z.object({ path: z.string(), n: z.number().int().min(1) }).safeParse({ path: 5, n: 0 });
     out = JSON.stringify({ messages: r.success ? [] : r.error.issues.map((i) => i.message), schema: z.toJSONSchema(z.object({ a: z.string() })) });`,
  );
  const r = await build({ entryPoints: [entry], bundle: true, write: false, platform: 'node', format: 'cjs', minify: true, plugins, nodePaths: [join(root, 'node_modules')], logLevel: 'silent' });
  const code = r.outputFiles[0]!.text;
  // What the bundle computed crosses back as JSON: objects of another realm fail a strict deepEqual.
  const sandbox: { out?: string } = {};
  runInNewContext(code, sandbox);
  return { bytes: code.length, out: JSON.parse(sandbox.out!) as { messages: string[]; schema: unknown } };
}

describe('the bundles leave out zod\'s locales', () => {
  it('keeps zod\'s English messages and JSON-schema export, and is over 200 KB smaller', async () => {
    const [full, trimmed] = await Promise.all([bundled([]), bundled([zodWithoutLocales])]);
    assert.deepEqual(trimmed.out, full.out, 'the same messages and schema with and without the locales');
    assert.match(trimmed.out.messages.join(' | '), /expected string, received number/);
    assert.ok(full.bytes - trimmed.bytes > 200_000, `saved ${full.bytes - trimmed.bytes} bytes`);
  });

  it('leaves out z.fromJSONSchema, which no source file calls', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /\.tsx?$/.test(e.name));
    const callers = files.filter((e) => readFileSync(join(e.parentPath, e.name), 'utf8').includes('fromJSONSchema'));
    assert.deepEqual(callers.map((e) => e.name), [], 'the bundles replace z.fromJSONSchema with a function that throws');
    const [full, trimmed] = await Promise.all([bundled([]), bundled([zodWithoutLocales])]);
    assert.deepEqual(trimmed.out, full.out);
  });
});
