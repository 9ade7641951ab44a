// Mutation testing with StrykerJS (`npm run mutate`), not part of CI: it takes long on a small
// machine. Each target is its own Stryker run with only the test files that cover it, so a
// targeted rerun does not pay for the whole suite, and each keeps its own incremental file.
//
//   npm run mutate                                  all four targets, one after another
//   npm run mutate -- sessions compact              some targets
//   npm run mutate -- sessions --mutate src/sessions/recorder.ts:110-125
//   npm run mutate -- --concurrency 1 --force       (--force: ignore the incremental files)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stryker } from '@stryker-mutator/core';

const root = join(import.meta.dirname, '..');
// Stryker resolves every path in its options from the working folder.
process.chdir(root);
const reports = 'reports/mutation';

/** What is mutated, and the test files that are run against the mutants. */
const targets = {
  compact: { mutate: ['src/compact/**/*.ts'], tests: ['test/unit/compact/*.test.ts'] },
  queryLoop: { mutate: ['src/agent/queryLoop.ts'], tests: ['test/unit/agent/loop.test.ts', 'test/unit/agent/loopHistory.test.ts', 'test/unit/agent/agent.test.ts'] },
  sessions: { mutate: ['src/sessions/**/*.ts'], tests: ['test/unit/sessions/*.test.ts'] },
  permissions: {
    mutate: ['src/agent/permissions.ts'],
    tests: ['test/unit/agent/permissions.test.ts', 'test/unit/agent/pathPermissions.test.ts', 'test/unit/agent/bashPermissions.test.ts', 'test/unit/agent/bashCorpus.test.ts'],
  },
};

function parseArgs(argv) {
  const out = { names: [], mutate: undefined, concurrency: 2, force: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    // Stryker wants a range: `file:7` is taken as `file:7-7`.
    if (a === '--mutate') out.mutate = argv[++i]?.split(',').map((m) => m.replace(/:(\d+)$/, ':$1-$1'));
    else if (a === '--concurrency') out.concurrency = Number(argv[++i]);
    else if (a === '--force') out.force = true;
    else if (a in targets) out.names.push(a);
    else {
      console.error(`unknown argument ${JSON.stringify(a)}; targets: ${Object.keys(targets).join(', ')}; options: --mutate FILE[:LINES],… --concurrency N --force`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(out.concurrency) || out.concurrency < 1) {
    console.error('--concurrency takes a whole number of at least 1');
    process.exit(2);
  }
  if (out.mutate && out.names.length !== 1) {
    console.error('--mutate needs exactly one target (it decides which tests run)');
    process.exit(2);
  }
  if (!out.names.length) out.names = Object.keys(targets);
  return out;
}

/** Killed and timed-out mutants are detected; survivors and uncovered ones are not. */
function tally(results) {
  const count = (s) => results.filter((r) => r.status === s).length;
  const t = { killed: count('Killed'), survived: count('Survived'), noCoverage: count('NoCoverage'), timeout: count('Timeout'), errors: count('RuntimeError') + count('CompileError') };
  const valid = t.killed + t.timeout + t.survived + t.noCoverage;
  return { ...t, score: valid ? (100 * (t.killed + t.timeout)) / valid : NaN };
}

const args = parseArgs(process.argv.slice(2));
mkdirSync(join(root, reports), { recursive: true });
const summary = {};
for (const name of args.names) {
  const t = targets[name];
  const started = Date.now();
  console.log(`\n== ${name}: mutating ${(args.mutate ?? t.mutate).join(', ')}`);
  const stryker = new Stryker({
    mutate: args.mutate ?? t.mutate,
    testRunner: 'tap',
    // node:test files print TAP when run on their own; tsx loads the TypeScript.
    tap: { testFiles: t.tests, nodeArgs: ['--import', 'tsx'], forceBail: true },
    coverageAnalysis: 'perTest',
    concurrency: args.concurrency,
    // The machine is shared and often loaded: a slow run is not a mutant that hangs.
    timeoutMS: 30_000,
    timeoutFactor: 2,
    incremental: true,
    force: args.force,
    incrementalFile: `${reports}/${name}.incremental.json`,
    reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
    htmlReporter: { fileName: `${reports}/${name}.html` },
    jsonReporter: { fileName: `${reports}/${name}.json` },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: true },
    tempDirName: '.stryker-tmp',
    ignorePatterns: ['dist', 'out', '.cache', 'test-results', 'bench-results', '.vscode-test', 'reports', '*.vsix'],
    cleanTempDir: true,
  });
  const results = await stryker.runMutationTest();
  summary[name] = { ...tally(results), minutes: Math.round((Date.now() - started) / 6000) / 10, mutate: args.mutate ?? t.mutate };
}

console.log('\ntarget        killed survived no-cov timeout errors  score   minutes');
for (const [name, s] of Object.entries(summary)) {
  console.log(
    `${name.padEnd(13)} ${String(s.killed).padStart(6)} ${String(s.survived).padStart(8)} ${String(s.noCoverage).padStart(6)} ${String(s.timeout).padStart(7)} ${String(s.errors).padStart(6)}  ${s.score.toFixed(1).padStart(5)}%  ${String(s.minutes).padStart(6)}`,
  );
}
writeFileSync(join(root, reports, `summary-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(summary, null, 2));
