import { resolveModel } from '../api/models';
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
}

/** Builds the main loop's requests, and answers questions about them (exact size, what they hold). */
export class RequestFactory {
  constructor(private readonly deps: RequestFactoryDeps) {}

  async build(history: readonly MessageParam[]): Promise<MessagesRequest> {
    const settings = this.deps.settings();
    const model = resolveModel(settings.model, { contextWindow: settings.contextWindow });
    const system = await this.deps.systemBlocks();
    const tools = this.deps.tools.definitions();
    // The meter counts these in its figure until the next response anchors it.
    this.deps.meter.setOverhead(estimateTokens(system) + estimateTokens(tools));
    return buildMessagesRequest({
      model: settings.model,
      maxTokens: Math.min(model.maxOutputTokens, 32_000),
      system,
      tools,
      history: applyReminders(history, (await this.deps.reminders?.()) ?? []),
    });
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
