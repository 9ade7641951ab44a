// Runs every test/unit/**/*.test.ts and test/adversarial/**/*.test.ts with node's own test runner (Node 20 has no glob
// support in `node --test`, so we find the files here).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const filter = process.argv.slice(2);

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return find(p);
    return e.name.endsWith('.test.ts') ? [relative(root, p)] : [];
  });
}

// test/adversarial is the hostile-repository corpus: real tests, one file per class of hole, that fail
// the suite like any other.
const files = [...find(join(root, 'test/unit')), ...find(join(root, 'test/adversarial'))].filter((f) => filter.length === 0 || filter.some((x) => f.includes(x))).sort();
if (files.length === 0) {
  console.error('no unit test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
});
process.exit(result.status ?? 1);
