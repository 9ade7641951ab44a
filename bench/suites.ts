import { benchActivate } from './activate.bench';
import { benchAgent } from './agent.bench';
import { benchBashLaunch } from './bashLaunch.bench';
import { benchBashPermissions } from './bashPermissions.bench';
import { benchBundles } from './bundle.bench';
import { benchCheckpoints } from './checkpoints.bench';
import { benchClaudeImport } from './claudeImport.bench';
import { benchCompaction } from './compaction.bench';
import { benchContext } from './context.bench';
import { benchCost } from './cost.bench';
import { benchCrash } from './crash.bench';
import { benchMcp } from './mcp.bench';
import { benchMemory } from './memory.bench';
import { benchSearch } from './search.bench';
import { benchSessions } from './sessions.bench';
import { benchStream } from './stream.bench';
import { benchValidity } from './validity.bench';
import { benchViewSync } from './viewSync.bench';
import { benchWebview } from './webview.bench';

export interface SuiteOptions {
  root: string;
  /** The small variant for CI: same figures, fewer samples or a smaller session. */
  quick: boolean;
}

export interface Suite {
  name: string;
  /** Has a quick variant (run by `--quick`). */
  quick: boolean;
  run(opts: SuiteOptions): Promise<Record<string, number>> | Record<string, number>;
}

export const SUITES: Suite[] = [
  { name: 'viewSync', quick: true, run: () => benchViewSync() },
  { name: 'bundles', quick: true, run: ({ root }) => benchBundles(root) },
  { name: 'activate', quick: true, run: ({ root }) => benchActivate(root) },
  { name: 'agent', quick: true, run: ({ quick }) => benchAgent({ quick }) },
  { name: 'stream', quick: true, run: ({ quick }) => benchStream({ quick }) },
  // Sixty short Bash tool calls, half in a user namespace: a few seconds.
  { name: 'bashLaunch', quick: true, run: ({ quick }) => benchBashLaunch({ quick }) },
  { name: 'bashPermissions', quick: true, run: ({ root, quick }) => benchBashPermissions(root, { quick }) },
  { name: 'sessions', quick: false, run: () => benchSessions() },
  { name: 'crash', quick: false, run: ({ root }) => benchCrash(root) },
  { name: 'claudeImport', quick: false, run: () => benchClaudeImport() },
  { name: 'context', quick: false, run: () => benchContext() },
  { name: 'compaction', quick: false, run: () => benchCompaction() },
  { name: 'memory', quick: true, run: () => benchMemory() },
  { name: 'validity', quick: true, run: ({ root, quick }) => benchValidity(root, { quick }) },
  { name: 'webview', quick: false, run: ({ root }) => benchWebview(root) },
  // Builds a 50,000-file tree (a minute or more on a busy machine): not in the quick subset.
  { name: 'search', quick: false, run: () => benchSearch() },
  // Also a 50,000-file tree, committed to git: not in the quick subset.
  { name: 'checkpoints', quick: false, run: () => benchCheckpoints() },
  // Issue 15's sessions against the stand-in's cache (the full ones take a few minutes).
  // In the CI subset since forks read the main cache (the quick sessions take about half a minute).
  { name: 'cost', quick: true, run: ({ quick }) => benchCost({ quick }) },
  // Ten real stdio servers (the tests' own): about half a minute, not in the quick subset.
  { name: 'mcp', quick: false, run: ({ quick }) => benchMcp({ quick }) },
];
