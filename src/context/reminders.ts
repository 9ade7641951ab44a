import { prependUserContent } from '../conversation/history';
import type { ContentBlockParam, MessageParam } from '../api/types';

export type ReminderType = 'instructions' | 'environment' | 'gitStatus' | 'tokenStatus' | 'rules';

export interface Reminder {
  type: ReminderType;
  text: string;
}

const OPEN = (type: ReminderType) => `<system-reminder type="${type}">`;
const REMINDER = /^<system-reminder type="([a-zA-Z]+)">/;

export function reminderBlock(r: Reminder): ContentBlockParam {
  return { type: 'text', text: `${OPEN(r.type)}\n${r.text}\n</system-reminder>` };
}

export function reminderTypeOf(block: ContentBlockParam): ReminderType | undefined {
  return block.type === 'text' ? (REMINDER.exec(block.text)?.[1] as ReminderType | undefined) : undefined;
}

/**
 * Puts each reminder at the head of the first user message, once per type: any older block
 * of a type being re-sent is dropped wherever it is, so repeating context never stacks up.
 * Applied when a request is built, not stored, so the history stays the conversation itself
 * and the same reminders at the same place keep the cached prefix byte-identical.
 */
export function applyReminders(history: readonly MessageParam[], reminders: readonly Reminder[]): MessageParam[] {
  const live = reminders.filter((r) => r.text.trim());
  if (!live.length || !history.length) return history.slice();
  const types = new Set(live.map((r) => r.type));
  const out: MessageParam[] = [];
  for (const m of history) {
    if (m.role !== 'user' || typeof m.content === 'string') {
      out.push(m);
      continue;
    }
    const kept = m.content.filter((b) => {
      const t = reminderTypeOf(b);
      return !t || !types.has(t);
    });
    if (kept.length) out.push(kept.length === m.content.length ? m : { ...m, content: kept });
  }
  return prependUserContent(out, live.map(reminderBlock));
}
