import type { MessagesClient } from '../api/messagesClient';
import type { ModelInfo, ModelSource } from '../api/models';
import type { Compactor } from '../compact/compactor';
import type { Conversation } from '../conversation/conversation';
import type { RecentFiles } from '../conversation/recentFiles';
import type { Thresholds } from '../conversation/thresholds';
import type { TokenMeter } from '../conversation/tokenMeter';
import type { MemoryDir } from '../memory/memdir';
import type { Logger } from '../ports/logger';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';
import type { RuntimeState } from '../state/runtimeState';
import type { ToolRegistry } from '../tools/registry';
import type { PermissionEngine } from '../permissions/permissionBroker';
import type { LoopDeps, LoopEvents, LoopResult } from './queryLoop';
import type { RequestFactory } from './requestFactory';
import type { PartialCompaction } from './compactionControl';

/** The parts of one session's agent, built in order by `createAgent` and handed over whole. */
export interface AgentDeps {
  store: Store<AppState>;
  runtime: RuntimeState;
  log: Logger;
  cwd: string;
  /** What the model is offered (the Compact tool included). */
  tools: ToolRegistry;
  permissions: PermissionEngine;
  conversation: Conversation;
  meter: TokenMeter;
  /** Files the agent read, to put back after a compaction. */
  recentReads: RecentFiles;
  requests: RequestFactory;
  client(): Promise<MessagesClient | undefined>;
  /** The model in use (`currentModel`), and its thresholds. */
  model(): ModelInfo;
  thresholds(): Thresholds;
  /** Asked before each prompt: refuses a model the API does not know, warns of a deprecated one. */
  models: ModelSource;
  maxTurns(): number;
  compactor?: Compactor;
  /** "Summarize from here" / "up to here"; none without a compactor. */
  partial?: PartialCompaction;
  /** After a partial compaction is applied: instruction files and the git snapshot are read again. */
  afterPartial?(): void;
  afterTools?: LoopDeps['afterTools'];
  /** Re-reads of unchanged files become pointers (see RereadTracker). */
  reviseResult?: LoopDeps['reviseResult'];
  /** Extra observers of the loop (the CLI's stream-json output, the session's recorder). */
  loopEvents?: LoopEvents;
  /** Background memory work, after each loop and before exit; none without memory. */
  memory?: { afterLoop(result: LoopResult): void; drain(): Promise<void>; memdir: MemoryDir };
}
