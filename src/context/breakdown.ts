import type { ContentBlockParam, MessageParam, MessagesRequest } from '../api/types';
import { estimateTokens } from '../conversation/tokens';
import type { InstructionReport } from './instructions';
import { reminderTypeOf } from './reminders';

export interface ContextCategory {
  name: string;
  tokens: number;
}

export interface ContextPreview {
  categories: ContextCategory[];
  total: number;
  instructionFiles: InstructionReport[];
}

function blocks(m: MessageParam): ContentBlockParam[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as ContentBlockParam[]);
}

/**
 * What the next request holds, by category, from the request the agent would send now.
 * Estimates (characters / 4): good for proportions; the status bar uses the API's usage.
 */
export function breakdownRequest(req: MessagesRequest, instructionFiles: InstructionReport[], memoryText = '', toolCategory: (name: string) => string = () => 'Tools'): ContextPreview {
  const [staticBlock, ...dynamicBlocks] = req.system;
  const dynamicText = dynamicBlocks.map((b) => b.text).join('\n\n');
  const gitIdx = dynamicText.indexOf('# Git status');
  const gitText = gitIdx >= 0 ? dynamicText.slice(gitIdx) : '';
  const memory = memoryText && dynamicText.includes(memoryText) ? memoryText : '';
  const cats = new Map<string, number>();
  const add = (name: string, n: number) => cats.set(name, (cats.get(name) ?? 0) + n);
  add('Static system prompt', estimateTokens(staticBlock?.text ?? ''));
  add('Dynamic system prompt', Math.max(0, estimateTokens(dynamicText) - estimateTokens(gitText) - estimateTokens(memory)));
  add('Memory', estimateTokens(memory));
  add('Git status', estimateTokens(gitText));
  // Each MCP server's definitions are a category of their own, so a heavy server shows by name.
  for (const t of req.tools) add(toolCategory(t.name), estimateTokens(t));
  for (const f of instructionFiles) if (f.status === 'included') add(`Instructions: ${f.path}`, f.tokensEstimate ?? 0);
  for (const m of req.messages) {
    for (const b of blocks(m)) {
      const type = reminderTypeOf(b);
      if (type === 'instructions') continue; // counted per file above
      if (type) add(type === 'rules' ? 'Conditional rules' : `Reminder: ${type}`, estimateTokens(b));
      else if (b.type === 'tool_result') add('Tool results', estimateTokens(b.content ?? ''));
      else if (b.type === 'tool_use') add('Tool calls', estimateTokens(b.input));
      else add('Messages', estimateTokens(b.type === 'text' ? b.text : b));
    }
  }
  const categories = [...cats].filter(([, n]) => n > 0).map(([name, tokens]) => ({ name, tokens }));
  return { categories, total: categories.reduce((n, c) => n + c.tokens, 0), instructionFiles };
}

const REASON: Record<string, string> = {
  missing: 'missing',
  cycle: 'include cycle, stopped',
  'depth-cap': `past the include depth cap`,
  'read-denied': 'a Read deny rule covers it',
  'includes-capped': 'its includes, and the rest of this load\'s, were not followed: 500 include references were met',
  'external-not-approved': 'it really lies outside the folders its level may read, and was not approved',
  'untrusted-workspace': 'folder not trusted',
  unreadable: 'unreadable',
  binary: 'binary file',
  'not-a-file': 'not a regular file',
};

/** A text picture: one bar per category, scaled to the context window. */
export function renderPreview(p: ContextPreview, contextWindow: number): string[] {
  const width = 40;
  const pct = (n: number) => (contextWindow ? (n / contextWindow) * 100 : 0);
  const lines = ['## What the next request holds', '', '```'];
  const nameWidth = Math.min(48, Math.max(...p.categories.map((c) => c.name.length), 10));
  for (const c of [...p.categories].sort((a, b) => b.tokens - a.tokens)) {
    const cells = Math.max(c.tokens > 0 ? 1 : 0, Math.round((pct(c.tokens) / 100) * width));
    const name = c.name.length > nameWidth ? `…${c.name.slice(-(nameWidth - 1))}` : c.name.padEnd(nameWidth);
    lines.push(`${name} ${'█'.repeat(cells).padEnd(width, '░')} ${String(c.tokens).padStart(7)} ${pct(c.tokens).toFixed(1).padStart(5)}%`);
  }
  const free = Math.max(0, contextWindow - p.total);
  lines.push(`${'Free'.padEnd(nameWidth)} ${''.padEnd(width, ' ')} ${String(free).padStart(7)} ${pct(free).toFixed(1).padStart(5)}%`, '```', '');
  lines.push('## Instruction files', '');
  if (!p.instructionFiles.length) lines.push('None found.');
  for (const f of p.instructionFiles) {
    const status = f.status === 'included' ? 'included' : f.status === 'conditional' ? `conditional: ${f.reason} (sent when a matching file is read or edited)` : `skipped: ${REASON[f.reason ?? ''] ?? f.reason}`;
    const real = f.realPath ? ` (really \`${f.realPath}\`)` : '';
    lines.push(`- \`${f.path}\`${real} (${f.kind}) — ${status}; ${f.why}${f.warning ? ` ⚠ ${f.warning}` : ''}`);
  }
  return lines;
}
