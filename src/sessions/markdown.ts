import type { MessageParam } from '../api/types';
import type { ViewMessage } from '../shared/viewState';
import type { LoadedSession } from './transcript';
import { parseJson } from '../fs/jsonText';

/** The user's own words across the session, for search: the first 400 characters. */
export function previewFrom(view: readonly ViewMessage[]): string {
  return view
    .filter((m): m is Extract<ViewMessage, { kind: 'user' }> => m.kind === 'user')
    .map((m) => m.text.replace(/\s+/g, ' ').trim())
    .join(' · ')
    .slice(0, 400);
}

/** The conversation as a markdown document, for sharing or keeping. */
export function sessionToMarkdown(s: LoadedSession): string {
  const out = [`# ${s.title ?? titleFrom(s.view) ?? 'Threadline session'}`, '', `Session ${s.meta.id}, ${new Date(s.meta.createdAt).toISOString()}, model ${s.meta.model}.`, ''];
  for (const m of s.view) {
    switch (m.kind) {
      case 'user':
        out.push('## You', '', m.text, '');
        break;
      case 'assistant':
        out.push('## Threadline', '', m.text, '');
        break;
      case 'tool':
        out.push(`> **${m.name}** ${m.summary} — ${m.status}${m.durationMs !== undefined ? `, ${(m.durationMs / 1000).toFixed(1)} s` : ''}`, '');
        break;
      case 'compaction':
        out.push(`---`, '', `*Compacted: ${m.tokensBefore} → ${m.tokensAfter} tokens.*`, '', m.summary, '', '---', '');
        break;
      case 'notice':
        out.push(`> ${m.text}`, '');
        break;
    }
  }
  return out.join('\n');
}

/** A short title from the first thing the user asked. */
export function titleFrom(view: readonly ViewMessage[]): string | undefined {
  const first = view.find((m) => m.kind === 'user');
  if (!first || first.kind !== 'user') return undefined;
  const line = first.text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57).trimEnd()}…` : line || undefined;
}

/** An archived pre-compaction transcript (one API message per line) as read-only markdown. */
export function archiveToMarkdown(jsonl: string): string {
  const out = ['# Conversation before compaction', '', '*Read-only: this is the transcript Threadline archived before summarising it.*', ''];
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    let m: MessageParam;
    try {
      m = parseJson(line) as MessageParam;
    } catch {
      out.push('> (an unreadable line was skipped)', '');
      continue;
    }
    const blocks = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
    for (const b of blocks) {
      if (b.type === 'text') {
        if (b.text.startsWith('<system-reminder')) continue;
        out.push(m.role === 'user' ? '## You' : '## Threadline', '', b.text, '');
      } else if (b.type === 'tool_use') out.push(`> **${b.name}** \`${JSON.stringify(b.input).slice(0, 200)}\``, '');
      else if (b.type === 'tool_result') {
        const text = typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? '');
        out.push('```', text.length > 2000 ? `${text.slice(0, 2000)}\n… (${text.length - 2000} more characters)` : text, '```', '');
      }
    }
  }
  return out.join('\n');
}
