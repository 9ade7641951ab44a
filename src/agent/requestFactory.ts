import type { ModelInfo } from '../api/models';
import { thinkingParam } from '../api/thinking';
import type { MessagesClient } from '../api/messagesClient';
import type { MessageParam, MessagesRequest, SystemBlock } from '../api/types';
import { breakdownRequest, type ContextPreview } from '../context/breakdown';
import type { InstructionReport } from '../context/instructions';
import { applyReminders, type Reminder } from '../context/reminders';
import { buildMessagesRequest } from '../context/requestBuilder';
import type { TokenMeter } from '../conversation/tokenMeter';
import { computeThresholds, fitOutputTokens } from '../conversation/thresholds';
import { estimateTokens } from '../conversation/tokens';
import type { AppSettings } from '../state/appState';
import type { ToolRegistry } from '../tools/registry';

export interface RequestFactoryDeps {
  settings(): AppSettings;
  /** The model in use (`currentModel`). */
  model(): ModelInfo;
  tools: ToolRegistry;
  meter: TokenMeter;
  client(): Promise<MessagesClient | undefined>;
  systemBlocks(): Promise<SystemBlock[]>;
  reminders?(): Promise<Reminder[]>;
  instructionReport?(): Promise<InstructionReport[]>;
}

export interface BuildOptions {
  /** A smaller max_tokens than what fits (the API said how much fits). */
  maxTokens?: number;
  /** The next request is expected to clear: leave this one's new tail out of the cache. */
  tailUncached?: boolean;
  /** The tool result the next clearing starts at: a cache breakpoint goes just before it. */
  frontier?: string;
}

/** Builds the main loop's requests, and answers questions about them (exact size, what they hold). */
export class RequestFactory {
  constructor(private readonly deps: RequestFactoryDeps) {}

  /**
   * The next main request. max_tokens is what fits beside this history in the window (the API
   * refuses input + max_tokens over it), unless `opts.maxTokens` names a smaller figure (the
   * API said how much fits).
   */
  async build(history: readonly MessageParam[], opts: BuildOptions = {}): Promise<MessagesRequest> {
    const settings = this.deps.settings();
    const model = this.deps.model();
    const system = await this.deps.systemBlocks();
    // Tools from MCP servers join as their servers become ready; deferral depends on the window.
    const tools = this.deps.tools.definitions(history, { contextWindow: model.contextWindow });
    // The meter counts these in its figure until the next response anchors it.
    this.deps.meter.setOverhead(estimateTokens(system) + estimateTokens(tools));
    const fitted = fitOutputTokens(computeThresholds(model.contextWindow, model.maxOutputTokens), this.deps.meter.used(history), Math.min(model.maxOutputTokens, 32_000));
    const maxTokens = Math.max(1, Math.min(fitted, opts.maxTokens ?? fitted));
    const thinking = thinkingParam(model, settings.thinking, maxTokens, history);
    return {
      ...buildMessagesRequest({
        model: model.id,
        maxTokens,
        system,
        tools,
        history: applyReminders(history, (await this.deps.reminders?.()) ?? []),
        ...(opts.frontier ? { frontier: opts.frontier } : {}),
        ...(opts.tailUncached ? { tailUncached: true } : {}),
      }),
      ...(thinking ? { thinking } : {}),
      ...(model.betas.length ? { betas: model.betas } : {}),
    };
  }

  /** The API's own count of the request this history would make (count_tokens). */
  async exactTokens(history: readonly MessageParam[]): Promise<number> {
    const client = await this.deps.client();
    if (!client) throw new Error('no API key is set');
    const r = await this.build(history);
    return client.countTokens({ model: r.model, system: r.system, tools: r.tools, messages: r.messages });
  }

  /** What the next request would hold, by category (Show Context, `threadline context`). */
  async preview(history: readonly MessageParam[]): Promise<ContextPreview> {
    return breakdownRequest(await this.build(history.length ? history : [placeholderMessage()]), (await this.deps.instructionReport?.()) ?? [], '', (name) => this.deps.tools.categoryOf(name));
  }
}

/** Stands for the user's next message where a request needs one to be well-formed. */
export function placeholderMessage(): MessageParam {
  return { role: 'user', content: [{ type: 'text', text: '(your next message)' }] };
}
