import type { NameSet } from '../tools/registry';
import { resolve } from 'node:path';
import type { MessagesClient } from '../api/messagesClient';
import type { ModelInfo } from '../api/models';
import type { MessageParam, MessagesRequest } from '../api/types';
import { compactWithSummary, findAnchors, type RecentFile } from '../compact/compact';
import { compactPartially } from '../compact/partial';
import { compactLimits } from '../compact/limits';
import type { CompactionResult } from '../compact/compact';
import type { PartialDirection } from '../compact/partial';
import type { CompactRequest } from '../compact/compactTool';
import { Compactor, type CompactorDeps } from '../compact/compactor';
import type { Thresholds } from '../conversation/thresholds';
import type { AppSettings } from '../state/appState';
import { readRegularFile } from '../fs/read';
import { counted, formatTokens } from '../shared/format';

/** More than any re-attached file keeps (they are cut to a share of the window). */
const RECENT_FILE_MAX_BYTES = 1024 * 1024;

export interface CompactionSetup {
  settings(): AppSettings;
  /** The model in use: the summary is asked of it. */
  model(): ModelInfo;
  thresholds(): Thresholds;
  client(): Promise<MessagesClient | undefined>;
  cwd: string;
  compactable: NameSet;
  /** Where the model's Compact tool leaves its request. */
  modelRequest: CompactRequest;
  /** Files read recently, newest first, to re-attach after a summary. */
  recentReads(): readonly string[];
  /**
   * Whether a Read of this path would run now without asking: a file is read back only then. It
   * may have been swapped for a link since, or a rule added; what was allowed once is asked again.
   */
  mayReread(path: string): boolean;
  countTokens(history: readonly MessageParam[]): Promise<number>;
  /** Estimated size of a request with this history (system and tools too). */
  measure(history: readonly MessageParam[]): number;
  /** The main loop's request builder: the summary request extends it to read its cache. */
  mainRequest(history: readonly MessageParam[]): Promise<MessagesRequest>;
  /** Keeps the full transcript before a compaction replaces it. */
  archive?(history: readonly MessageParam[]): Promise<string | void>;
  fromSessionMemory?: CompactorDeps['fromSessionMemory'];
  microConfig?: CompactorDeps['microConfig'];
  /** Instruction files and the git snapshot are read again after every compaction (the seeds re-inject them). */
  afterCompaction?(): void;
  /** After micro-compaction: the instruction files only (rules already sent stay in the history). */
  afterMicroCompaction?(): void;
}

async function readRecent(cwd: string, paths: readonly string[], mayReread: (path: string) => boolean): Promise<RecentFile[]> {
  const files = await Promise.all(
    paths.slice(0, 5).map(async (p) => {
      if (!mayReread(p)) return undefined;
      // Regular files only, and not a huge one: a file swapped for a FIFO would hang compaction.
      const read = await readRegularFile(resolve(cwd, p), RECENT_FILE_MAX_BYTES);
      return read.ok ? { path: p, content: read.bytes.toString('utf8') } : undefined;
    }),
  );
  return files.filter((f): f is RecentFile => f !== undefined);
}

/** The session's compactor: micro-compaction, session notes first, else the nine-section summary. */
export function createCompactor(setup: CompactionSetup): Compactor {
  const compactor = new Compactor({
    settings: () => setup.settings(),
    thresholds: () => setup.thresholds(),
    compactable: setup.compactable,
    modelRequest: setup.modelRequest,
    now: () => Date.now(),
    countTokens: (h) => setup.countTokens(h),
    measure: (h) => setup.measure(h),
    ...(setup.microConfig ? { microConfig: setup.microConfig } : {}),
    ...(setup.fromSessionMemory ? { fromSessionMemory: setup.fromSessionMemory } : {}),
    summarize: async (history, focus, limits, signal) => {
      const client = await setup.client();
      if (!client) throw new Error('no API key is set');
      return compactWithSummary({
        history,
        client,
        model: setup.model().id,
        signal,
        recentFiles: await readRecent(setup.cwd, setup.recentReads(), (p) => setup.mayReread(p)),
        limits,
        ...(focus ? { focus } : {}),
        shared: (h) => setup.mainRequest(h),
        ...(setup.archive ? { archive: setup.archive } : {}),
      });
    },
  });
  if (setup.afterCompaction) compactor.onDidCompact(() => setup.afterCompaction!());
  if (setup.afterMicroCompaction) compactor.onDidMicroCompact(() => setup.afterMicroCompaction!());
  return compactor;
}

/** Runs a partial compaction (a summary request); nothing is applied. */
export type PartialCompaction = (opts: { history: readonly MessageParam[]; at: number; direction: PartialDirection; focus?: string; signal: AbortSignal }) => Promise<CompactionResult>;

/**
 * "Summarize from here" / "up to here" with the session's client and model, reading the main
 * loop's cache, archiving the transcript first, measured as the main request is (so it refuses
 * a result that would not shrink the request).
 */
export function createPartialCompaction(setup: CompactionSetup): PartialCompaction {
  return async ({ history, at, direction, focus, signal }) => {
    const client = await setup.client();
    if (!client) throw new Error('no API key is set');
    return compactPartially({
      history,
      at,
      direction,
      ...(focus ? { focus } : {}),
      client,
      model: setup.model().id,
      signal,
      limits: compactLimits(setup.thresholds()),
      shared: (h) => setup.mainRequest(h),
      measure: (h) => setup.measure(h),
      ...(setup.archive ? { archive: setup.archive } : {}),
    });
  };
}

/** What a manual compaction would do now, in one sentence (shown before the user confirms). */
export function describeCompaction(history: readonly MessageParam[], usedTokens: number, recentReads: readonly string[]): string {
  const n = history.length;
  const anchors = findAnchors(history).length;
  const files = recentReads.slice(0, 5);
  const kept = anchors ? `; keeps word for word ${counted(anchors, 'correction, completion or fix', 'corrections, completions or fixes')}` : '';
  return (
    `Summarises ${counted(n, 'message')} (about ${formatTokens(usedTokens)} tokens) into the nine-section summary${kept}` +
    (files.length ? ` and re-attaches ${files.join(', ')}` : '') +
    '. Its divider offers Undo for as long as the summary is in the conversation.'
  );
}
