// Mutation testing with StrykerJS (`npm run mutate`), not part of CI: it takes long on a small
// machine. Each target is its own Stryker run with only the test files that cover it, so a
// targeted rerun does not pay for the whole suite, and each keeps its own incremental file.
//
//   npm run mutate                                  all four targets, one after another
//   npm run mutate -- sessions compact              some targets
//   npm run mutate -- sessions --mutate src/sessions/recorder.ts:110-125
//   npm run mutate -- --concurrency 1 --force       (--force: ignore the incremental files)
//   npm run mutate -- --tsx                         each test file through tsx, as `npm test` runs it
//   npm run mutate -- --property-runs 2000          the property tests' full draw (default: fewer)
//
// By default the sandbox is compiled to JavaScript once (scripts/mutateBuild.mjs, Stryker's
// buildCommand) and every test process runs plain .js: through tsx a mutant cost about three
// times the CPU, most of it the loader and its per-call overhead rather than the tests.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stryker } from '@stryker-mutator/core';

const root = join(import.meta.dirname, '..');
// Stryker resolves every path in its options from the working folder.
process.chdir(root);
const reports = 'reports/mutation';
/**
 * The property tests' draw during mutation (THREADLINE_PROPERTY_RUNS; `npm test` draws 2,000 of the
 * compaction validity histories). The seed stays fixed (test/support/fastCheck.ts). On a sample
 * of 36 compact mutants (compactor.ts:142-172 and limits.ts) every mutant had the same status
 * with 200 draws as with 2,000 (README, Mutation testing).
 */
const PROPERTY_RUNS = 200;

/**
 * What is mutated, and the test files that are run against the mutants. A mutant runs the files
 * that cover it in this order and stops at the first that fails, so the slow files go last
 * (`last`, slowest at the end; CPU seconds per file as compiled JavaScript on this machine:
 * sessions.test 6.7, the permission files 2.6-3.8, agent.test 2.7, validity.property 2.4 with 200
 * draws, thresholdsProperty 1.9, compact.test 1.4; most others 0.2-0.5).
 */
const targets = {
  compact: { mutate: ['src/compact/**/*.ts'], tests: ['test/unit/compact/*.test.ts'], last: ['compact.test.ts', 'thresholdsProperty.test.ts', 'validity.property.test.ts'] },
  // Every unit test that drives runQueryLoop: with only the loop tests and agent.test.ts, 57 of
  // its 362 mutants had no test at all (the stop mid-stream among them, which thinking.test.ts runs).
  queryLoop: {
    mutate: ['src/agent/queryLoop.ts'],
    tests: ['loop', 'loopHistory', 'retries', 'resultClip', 'rereads', 'thinking', 'forkCache', 'agent'].map((f) => `test/unit/agent/${f}.test.ts`),
    last: [],
  },
  sessions: { mutate: ['src/sessions/**/*.ts'], tests: ['test/unit/sessions/*.test.ts'], last: ['recorder.test.ts', 'claudeImport.property.test.ts', 'sessions.test.ts'] },
  // The whole permission engine: the decision order (permissions.ts), rule syntax and matching,
  // path rules, rule sources, project trust, the Bash analysis (bash/) and the paths its commands
  // name, the agent's own /proc entries, and the broker that turns verdicts into answers.
  permissions: {
    mutate: ['src/permissions/**/*.ts', 'src/fs/ownProcess.ts'],
    tests: ['test/unit/permissions/*.test.ts', ...['permissions', 'pathPermissions', 'bashPermissions', 'bashCorpus', 'bashCorpus.property'].map((f) => `test/unit/agent/${f}.test.ts`)],
    last: ['bashCorpus.property.test.ts'],
  },
};

/**
 * The test files as literal paths in run order: the tap runner runs them in the order its glob
 * returns, which for a `*` pattern is not alphabetical (sessions.test.ts, the slowest, came first)
 * but for literal paths is the order given.
 */
function orderedTests({ tests, last }) {
  const files = tests.flatMap((pattern) => {
    const star = pattern.lastIndexOf('/*');
    if (star < 0) return [pattern];
    const dir = pattern.slice(0, star);
    const suffix = pattern.slice(star + 2);
    return readdirSync(join(root, dir))
      .filter((f) => f.endsWith(suffix))
      .sort()
      .map((f) => `${dir}/${f}`);
  });
  const rank = (f) => last.indexOf(f.slice(f.lastIndexOf('/') + 1));
  return files.sort((a, b) => rank(a) - rank(b));
}

function parseArgs(argv) {
  const out = { names: [], mutate: undefined, concurrency: 2, force: false, tsx: false, propertyRuns: PROPERTY_RUNS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    // Stryker wants a range: `file:7` is taken as `file:7-7`.
    if (a === '--mutate') out.mutate = argv[++i]?.split(',').map((m) => m.replace(/:(\d+)$/, ':$1-$1'));
    else if (a === '--concurrency') out.concurrency = Number(argv[++i]);
    else if (a === '--force') out.force = true;
    else if (a === '--tsx') out.tsx = true;
    else if (a === '--property-runs') out.propertyRuns = Number(argv[++i]);
    else if (a in targets) out.names.push(a);
    else {
      console.error(`unknown argument ${JSON.stringify(a)}; targets: ${Object.keys(targets).join(', ')}; options: --mutate FILE[:LINES],… --concurrency N --force --tsx --property-runs N`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(out.concurrency) || out.concurrency < 1) {
    console.error('--concurrency takes a whole number of at least 1');
    process.exit(2);
  }
  if (!Number.isInteger(out.propertyRuns) || out.propertyRuns < 1) {
    console.error('--property-runs takes a whole number of at least 1');
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
// Read by the property tests in every test process Stryker starts.
process.env.THREADLINE_PROPERTY_RUNS = String(args.propertyRuns);
mkdirSync(join(root, reports), { recursive: true });
const summary = {};
for (const name of args.names) {
  const t = targets[name];
  const started = Date.now();
  console.log(`\n== ${name}: mutating ${(args.mutate ?? t.mutate).join(', ')}`);
  const mode = args.tsx ? '.tsx' : '';
  const tests = orderedTests(t);
  const stryker = new Stryker({
    mutate: args.mutate ?? t.mutate,
    testRunner: 'tap',
    // node:test files print TAP when run on their own: either the .js that mutateBuild writes beside
    // each .ts in the sandbox, or the .ts through tsx.
    ...(args.tsx
      ? { tap: { testFiles: tests, nodeArgs: ['--import', 'tsx'], forceBail: true } }
      : {
          buildCommand: 'node scripts/mutateBuild.mjs',
          // Liftoff only: V8 otherwise spends 1.5-2.5 s of CPU per test process optimising the
          // 1.3 MB bash grammar (wasm) that a process of a few seconds never profits from; the
          // permission test files took a third to a quarter of the CPU with it.
          tap: { testFiles: tests.map((f) => f.replace(/\.ts$/, '.js')), nodeArgs: ['--liftoff-only'], forceBail: true },
        }),
    coverageAnalysis: 'perTest',
    concurrency: args.concurrency,
    // The machine is shared and often loaded: a slow run is not a mutant that hangs.
    timeoutMS: 30_000,
    timeoutFactor: 2,
    incremental: true,
    force: args.force,
    // The two ways name their tests differently (.js, .ts): each keeps its own results.
    incrementalFile: `${reports}/${name}${mode}.incremental.json`,
    reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
    htmlReporter: { fileName: `${reports}/${name}${mode}.html` },
    jsonReporter: { fileName: `${reports}/${name}${mode}.json` },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: true },
    // One sandbox folder per target and way, so two runs can share the worktree.
    tempDirName: `.stryker-tmp/${name}${mode}`,
    ignorePatterns: ['dist', 'out', '.cache', 'test-results', 'bench-results', '.vscode-test', 'reports', '*.vsix', '.stryker-tmp'],
    cleanTempDir: true,
  });
  const results = await stryker.runMutationTest();
  summary[name] = { ...tally(results), minutes: Math.round((Date.now() - started) / 6000) / 10, mutate: args.mutate ?? t.mutate, tsx: args.tsx, propertyRuns: args.propertyRuns, concurrency: args.concurrency };
}

console.log('\ntarget        killed survived no-cov timeout errors  score   minutes');
for (const [name, s] of Object.entries(summary)) {
  console.log(
    `${name.padEnd(13)} ${String(s.killed).padStart(6)} ${String(s.survived).padStart(8)} ${String(s.noCoverage).padStart(6)} ${String(s.timeout).padStart(7)} ${String(s.errors).padStart(6)}  ${s.score.toFixed(1).padStart(5)}%  ${String(s.minutes).padStart(6)}`,
  );
}
writeFileSync(join(root, reports, `summary-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(summary, null, 2));
