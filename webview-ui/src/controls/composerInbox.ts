// Text the host hands back to a session's composer (a rewound message, the message a fork
// starts from, one too big to send). It can arrive before that session's composer is mounted
// (a fork switches sessions), so it waits here until the composer takes it.

const waiting = new Map<string, string[]>();
const listeners = new Set<(sessionId: string) => void>();

export function handBack(sessionId: string, text: string): void {
  waiting.set(sessionId, [...(waiting.get(sessionId) ?? []), text]);
  for (const l of [...listeners]) l(sessionId);
}

/** Takes what waits for this session, oldest first, and forgets it. */
export function takeHandedBack(sessionId: string): string[] {
  const texts = waiting.get(sessionId) ?? [];
  waiting.delete(sessionId);
  return texts;
}

export function onHandBack(listener: (sessionId: string) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A handed-back message goes in front of what is typed, a blank line between. */
export function withHandedBack(draft: string, texts: readonly string[]): string {
  if (!texts.length) return draft;
  const parts = [...texts, draft].filter((t) => t.trim() !== '');
  return parts.join('\n\n');
}
