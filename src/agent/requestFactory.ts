import { tableModels, type ModelInfo, type ModelSource } from '../api/models';
import { thinkingParam } from '../api/thinking';
import type { MessagesClient } from '../api/messagesClient';
import type { MessageParam, MessagesRequest, SystemBlock } from '../api/types';
import { breakdownRequest, type ContextPreview } from '../context/breakdown';
import type { InstructionReport } from '../context/instructions';
import { applyReminders, type Reminder } from '../context/reminders';
import { buildMessagesRequest } from '../context/requestBuilder';
import type { TokenMeter } from '../conversation/tokenMeter';
import { estimateTokens } from '../conversation/tokens';
import type { AppSettings } from '../state/appState';
import type { ToolRegistry } from '../tools/registry';

export interface RequestFactoryDeps {
  settings(): AppSettings;
  tools: ToolRegistry;
  meter: TokenMeter;
  createClient(): Promise<MessagesClient | undefined>;
  systemBlocks(): Promise<SystemBlock[]>;
  reminders?(): Promise<Reminder[]>;
  instructionReport?(): Promise<InstructionReport[]>;
  /** The model catalog (Models API, cache, table); without it, the built-in table. */
  models?: ModelSource;
}

/** Builds the main loop's requests, and answers questions about them (exact size, what they hold). */
export class RequestFactory {
  constructor(private readonly deps: RequestFactoryDeps) {}

  /** The model the settings name (`sonnet` → its newest model), as the catalog knows it now. */
  model(): ModelInfo {
    const settings = this.deps.settings();
    return (this.deps.models ?? tableModels).current(settings.model, { contextWindow: settings.contextWindow });
  }

  async build(history: readonly MessageParam[]): Promise<MessagesRequest> {
    const settings = this.deps.settings();
    const model = this.model();
    const maxTokens = Math.min(model.maxOutputTokens, 32_000);
    const thinking = thinkingParam(model, settings.thinking, maxTokens, history);
    const system = await this.deps.systemBlocks();
    const tools = this.deps.tools.definitions();
    // The meter counts these in its figure until the next response anchors it.
    this.deps.meter.setOverhead(estimateTokens(system) + estimateTokens(tools));
    return {
      ...buildMessagesRequest({
        model: model.id,
        maxTokens,
        system,
        tools,
        history: applyReminders(history, (await this.deps.reminders?.()) ?? []),
      }),
      ...(thinking ? { thinking } : {}),
      ...(model.betas.length ? { betas: model.betas } : {}),
    };
  }

  /** The API's own count of the request this history would make (count_tokens). */
  async exactTokens(history: readonly MessageParam[]): Promise<number> {
    const client = await this.deps.createClient();
    if (!client) throw new Error('no API key is set');
    const r = await this.build(history);
    return client.countTokens({ model: r.model, system: r.system, tools: r.tools, messages: r.messages });
  }

  /** What the next request would hold, by category (Show Context, `threadline context`). */
  async preview(history: readonly MessageParam[]): Promise<ContextPreview> {
    return breakdownRequest(await this.build(history.length ? history : [placeholderMessage()]), (await this.deps.instructionReport?.()) ?? []);
  }
}

/** Stands for the user's next message where a request needs one to be well-formed. */
export function placeholderMessage(): MessageParam {
  return { role: 'user', content: [{ type: 'text', text: '(your next message)' }] };
}
