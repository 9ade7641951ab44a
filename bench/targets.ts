/**
 * What each figure should be, with where the target comes from. `max`: at most; `min`: at least.
 * A figure past its target fails the run (the quick subset in CI too), except an absolute time
 * (`time`), which on a shared machine moves with the load: it fails only more than 2x past its
 * target and is marked as missed within that. Ratios measured in the same run, sizes and counts
 * have no such band. A target whose suite ran but whose figure is absent fails the run too,
 * unless it says when it may be absent (`absentWhen`). Figures without a target are reported
 * as they are.
 */
export interface Target {
  max?: number;
  min?: number;
  why: string;
  /** A different bound for the quick variant, where it measures a smaller run. */
  quick?: { max?: number; min?: number };
  /** An absolute wall-clock or CPU time: missed within 2x is a warning, past 2x a failure. */
  time?: true;
  /** The figure may be missing, for this reason (printed in its place). */
  absentWhen?: string;
}

export const TARGETS: Record<string, Target> = {
  'viewSync.bytesPerToken@2000': { max: 200, why: 'streaming cost stays flat with history' },
  // 1,536 until 27 November: that stop's Bash checks (option models for ssh, openssl, kubectl, gpg,
  // ssh-keygen; sqlite3's SQL; tsconfig, .npmrc, ctags, rust-toolchain and javac readers) added
  // 28 KiB of the host's own code, no new library.
  // 1,600 until the evening of 27 November, when the bundle stood at 1,599: the API client now
  // carries only the SDK's messages and models resources (300 KB of the others left).
  'bundles.hostBundleKB': { max: 1400, why: 'host bundle under 1.4 MB' },
  'bashLaunch.namespaceRatio': { max: 1.5, absentWhen: 'the machine allows no user namespace', why: 'a Bash command in its own user namespace starts within 1.5x of one without, same run' },
  'bundles.webviewGzipKB': { max: 170, why: 'webview small enough to load at once (160 before this wave; the restore and summarize panels, the MCP server list and approvals, and the slash menu added 4 KB gzipped)' },
  'activate.activateMs': { time: true, max: 50, why: 'activation out of the editor start-up path' },
  'mcp.firstRequestAddedMs': { max: 5, why: 'the first request does not wait for MCP servers: ten starting add nothing beyond noise to its time, same run' },
  'mcp.upFrontDeferredTokens': { max: 1500, why: '200 tools from 10 servers, deferred: names and ToolSearch only' },
  'mcp.result5MbHistoryGrowthTokens': { max: 25000, why: 'a 5 MB result grows the history by no more than the cap' },
  'mcp.result5MbHeapGrowthMbAfter10': { max: 50, why: 'ten 5 MB results leave the heap bounded: the text is on disk, not in memory' },
  // The goal is under 5 ms of overhead. A ratio to the bare stream (1.3x) once stood in for it, but
  // its base is a local stand-in's 2-7 ms, which moves with the machine's load, and the SDK's
  // accumulating stream and the idle watch take most of 1.3x of it: measured in 80 pairs it read
  // 1.30-1.32 on a quiet machine and 1.38-1.45 on a busy one. So the overhead itself is judged.
  'agent.ttftOverheadMs': { max: 5, time: true, why: 'time to first token over a bare SDK stream of the same request, medians of 80 pairs in the same run' },
  'stream.clientVsBare': { max: 1.5, why: 'our client (the SDK\'s MessageStream, the idle watch, the observer) reads a long answer within 1.5x of the bare SDK event iterator, same run' },
  'agent.heapGrowthMbAfter500Turns': { max: 10, why: 'a long session does not leak' },
  'bashPermissions.hostileAutoAllowed': { max: 0, why: 'no hostile command auto-allowed' },
  'bashPermissions.parsedP95Us': { time: true, max: 5000, why: 'a permission check is not noticed' },
  'claudeImport.importVsParseRatio': { max: 10, why: 'importing costs a small multiple of reading the file' },
  'compaction.requestsRefusedTooLong': { max: 0, why: 'no request refused as too long' },
  'compaction.latestThreeResultsVerbatim': { min: 1, why: 'the three latest results always verbatim' },
  'context.assemblyNewSessionMedianMs': { time: true, max: 150, why: 'context of a 50,000-file repository per new session' },
  'context.cacheReadShareFromTurn2Min': { min: 0.9, why: 'the prompt cache keeps hitting from turn 2' },
  'memory.index200LoadMedianMs': { time: true, max: 5, why: 'memory index load' },
  'memory.compactFromNotesRequests': { max: 0, why: 'compaction from current notes needs no request' },
  'sessions.appendP95Ms': { time: true, max: 1, why: 'saving one message does not grow with the session' },
  'sessions.append5200Over10': { max: 2, why: 'saving a message at 5,200 messages against at 10, same run: flat' },
  'crash.lostMessages': { max: 0, why: 'kill -9 loses no completed message' },
  'crash.resumedShare': { min: 1, why: 'every killed session resumes' },
  'crash.invalidRequests': { max: 0, why: 'no request the API would refuse, before or after a kill' },
  'crash.deniedCalls': { max: 0, why: 'the scripted turn really runs its tools (a refused call would make the kills meaningless)' },
  'sessions.resume50MbMs': { time: true, max: 500, why: 'resume of a 50 MB transcript' },
  'sessions.list1000SessionsMs': { time: true, max: 200, why: 'history list of 1,000 sessions' },
  'webview.streamRatio@5000': { max: 1.2, why: 'streaming at 5,000 messages vs an empty session, same run' },
  'webview.domNodes@0': { max: 3000, why: 'DOM nodes stay bounded whatever the history' },
  'webview.domNodes@1000': { max: 3000, why: 'DOM nodes stay bounded whatever the history' },
  'webview.domNodes@5000': { max: 3000, why: 'DOM nodes stay bounded whatever the history' },
  'webview.frameP95Ms@0': { time: true, max: 33, why: 'frame p95 while streaming' },
  'webview.frameP95Ms@1000': { time: true, max: 33, why: 'frame p95 while streaming' },
  'webview.frameP95Ms@5000': { time: true, max: 33, why: 'frame p95 while streaming' },
  'webview.resumeMs': { time: true, max: 1000, why: 'resume of 5,000 messages to the last screen' },
  'webview.longAnswerMainThreadMs': { time: true, max: 1000, why: 'main-thread time to stream a 12 KB answer' },
  'validity.propertyCases': { min: 10_000, quick: { min: 2000 }, why: 'the compaction validity property at 10,000 cases (2,000 in the quick run)' },
  'search.globNewOverOld': { max: 1, why: 'Glob through picomatch, RE2 and fdir no slower than the hand-rolled walk it replaced, same run' },
  'search.grepLiteralNewOverOld': { max: 1, why: 'Grep on RE2 no slower than the backtracking RegExp it replaced, same run' },
  'search.ruleSourceReadsPerSearch': { max: 1, why: 'a search through the permission engine reads the rule sources once, not once per file found (12,500 files here)' },
  'search.grepRegexNewOverOld': { max: 1, why: 'the same, for a regular expression' },
  'search.glob200DenyRulesOverFew': { max: 3, why: 'a clone\'s 200 deny rules cost a search no more than three times the few rules of a usual setup: each rule is compiled once per search, not once per file (pass 52 M1)' },
  'checkpoints.capturePerEditMedianMs': { max: 5, why: 'keeping a copy before a Write or Edit costs under 5 ms on a 50,000-file repository' },
  'checkpoints.captureLargeOverSmall': { max: 2, why: 'that cost grows with the files an edit touches, not the repository: 50,000 files against 100, same run' },
  'checkpoints.beginCheckpointMedianMs': { max: 5, why: 'no walk of the tree when a prompt starts a checkpoint' },
  'checkpoints.bashDetectMedianMs': { max: 300, why: 'Bash change detection per command on 50,000 files, folders watched' },
  'checkpoints.bashChangesRestorableShare': { min: 1, why: 'every committed file a command changed can be restored from git' },
  'checkpoints.sessionDiskOverPreImages': { max: 1.5, why: 'disk stays close to the distinct copies kept' },
  'validity.counterexamples': { max: 0, why: 'no generated history breaks the API rules' },
  // Billed tokens as a ratio to the reference CLI on the same session (bench/reference-costs.json,
  // measured by scripts/compareCost.mjs on the same session scripts and stand-in, which the suite
  // checks; the quick run compares with the reference's quick sessions).
  ...costTargets(),
};

function costTargets(): Record<string, Target> {
  const ratio: Record<string, [number, string]> = {
    newFiles: [0.88, 'one loop of 60 reads of new files ≤ 0.88x the reference (the best peer 0.91x)'],
    workingSet: [0.35, 'a working set of 4 files read 60 times ≤ 0.35x the reference'],
    chat: [0.78, 'a 20-prompt chat continued with --continue ≤ 0.78x the reference, ahead of every peer measured'],
  };
  const out: Record<string, Target> = {};
  for (const [session, [max, why]] of Object.entries(ratio)) {
    out[`cost.${session}.ratioToReference`] = { max, why };
    out[`cost.${session}.backgroundReadShare`] = { min: 0.9, why: 'background (fork) requests read at least 90% of their prompt from the cache', absentWhen: 'no background request in this session, no share to judge' };
    out[`cost.${session}.refusedTooLong`] = { max: 0, why: 'no request refused as too long' };
    out[`cost.${session}.verbatimMisses`] = { max: 0, why: 'the three latest read results verbatim in every main request' };
    out[`cost.${session}.completed`] = { min: 1, why: 'the session runs to its end' };
    out[`cost.${session}.baselineCompleted`] = { min: 1, why: 'the no-strategy baseline runs to its end (else the ratio to it means nothing)' };
  }
  return out;
}

export type Verdict = 'met' | 'missed' | 'failed' | 'none';

/**
 * Met, or failed; for an absolute time, missed (within 2x of the target) before failed (more
 * than 2x past it). A figure that is not a number (NaN: nothing measured) fails.
 */
export function judge(value: number, target: Target | undefined, quick = false): Verdict {
  if (!target) return 'none';
  const t = quick && target.quick ? { ...target, ...target.quick } : target;
  if (!Number.isFinite(value)) return 'failed';
  if (t.max !== undefined) {
    if (value <= t.max) return 'met';
    return t.time && value <= t.max * 2 ? 'missed' : 'failed';
  }
  if (t.min !== undefined) {
    if (value >= t.min) return 'met';
    return t.time && value >= t.min / 2 ? 'missed' : 'failed';
  }
  return 'none';
}

/** The targets of one suite whose figure it did not report and which may not be absent. */
export function missingFigures(suite: string, figures: Record<string, number>, targets: Record<string, Target> = TARGETS): string[] {
  return Object.entries(targets)
    .filter(([key, t]) => key.startsWith(`${suite}.`) && !(key.slice(suite.length + 1) in figures) && !t.absentWhen)
    .map(([key]) => key);
}

export function describeTarget(target: Target | undefined, quick = false): string {
  if (!target) return '';
  const t = quick && target.quick ? { ...target, ...target.quick } : target;
  return t.max !== undefined ? `≤ ${t.max}` : `≥ ${t.min}`;
}
