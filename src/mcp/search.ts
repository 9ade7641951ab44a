// ToolSearch: when MCP definitions would crowd the window, the model gets their names and this
// tool, which finds tools by what they do (BM25 over names and descriptions, local and
// deterministic, so it works against any apiBaseUrl) or by name, and loads their definitions.
import type { Tool } from '../tools/types';

export const TOOL_SEARCH = 'ToolSearch';
const DEFAULT_RESULTS = 5;
const MAX_RESULTS = 20;

export interface SearchDoc {
  /** The name the model calls it by. */
  name: string;
  server: string;
  tool: string;
  description: string;
}

/** Words of a name or a text: lowercased, split at punctuation and camelCase. */
function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 || /\d/.test(w));
}

// Okapi BM25 with the usual constants. A tool's own name counts three times and its server's
// twice: "issue" should find create_issue before a tool that mentions issues once.
const K1 = 1.2;
const B = 0.75;

export class Bm25Index {
  private readonly terms: Array<Map<string, number>>;
  private readonly lengths: number[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(readonly docs: readonly SearchDoc[]) {
    this.terms = docs.map((d) => {
      const words = [...Array(3).fill(tokenize(d.tool)).flat(), ...tokenize(d.server), ...tokenize(d.server), ...tokenize(d.description)] as string[];
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      return tf;
    });
    this.lengths = this.terms.map((tf) => [...tf.values()].reduce((a, b) => a + b, 0));
    for (const tf of this.terms) for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  /** The best `k` documents for the query, best first; ties go by name, so the answer never varies. */
  search(query: string, k: number): SearchDoc[] {
    const words = [...new Set(tokenize(query))];
    const n = this.docs.length;
    const scored = this.docs.map((doc, i) => {
      const tf = this.terms[i]!;
      let score = 0;
      for (const w of words) {
        const f = tf.get(w);
        if (!f) continue;
        const df = this.df.get(w) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * this.lengths[i]!) / this.avgLength));
      }
      return { doc, score };
    });
    return scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.doc.name.localeCompare(b.doc.name))
      .slice(0, k)
      .map((s) => s.doc);
  }
}

export interface ToolSearchInput {
  query: string;
  max_results?: number;
}

export interface ToolSearchHost {
  /** Every deferred tool, in a stable order. */
  docs(): readonly SearchDoc[];
  /** Sends these tools' definitions from the next request on; returns the ones newly loaded. */
  load(names: readonly string[]): string[];
}

/** The names listed in the tool's description, one line per server (the server's prefix written once). */
export function listing(docs: readonly SearchDoc[]): string {
  const byServer = new Map<string, string[]>();
  for (const d of docs) {
    const prefix = `mcp__${d.server}__`;
    const short = d.name.startsWith(prefix) ? d.name.slice(prefix.length) : d.name;
    byServer.set(d.server, [...(byServer.get(d.server) ?? []), short]);
  }
  return [...byServer].map(([server, names]) => `${server}: ${names.join(', ')}`).join('\n');
}

export function toolSearchTool(host: ToolSearchHost): Tool<ToolSearchInput> {
  return {
    name: TOOL_SEARCH,
    get description() {
      return [
        'Loads definitions of MCP tools that are available but not loaded (listed below as server: tool names; each is called as mcp__<server>__<tool>).',
        `Search by words from what you need, or load exact tools with "select:" and their full names, comma-separated. Loaded tools can be called from your next step. Up to ${MAX_RESULTS} per search.`,
        '',
        listing(host.docs()),
      ].join('\n');
    },
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to search for, or "select:mcp__server__tool,…"' },
        max_results: { type: 'integer', minimum: 1, maximum: MAX_RESULTS, description: `How many to load (default ${DEFAULT_RESULTS})` },
      },
      required: ['query'],
    },
    traits: {},
    parse(input) {
      const i = input as Partial<ToolSearchInput> | null;
      if (typeof i !== 'object' || i === null || typeof i.query !== 'string' || !i.query.trim()) return { ok: false, error: 'missing required field "query" (words to search for, or "select:mcp__server__tool")' };
      const max = i.max_results;
      if (max !== undefined && max !== null && (!Number.isInteger(max) || max < 1 || max > MAX_RESULTS)) return { ok: false, error: `"max_results" must be a whole number from 1 to ${MAX_RESULTS}` };
      return { ok: true, value: { query: i.query, ...(typeof max === 'number' ? { max_results: max } : {}) } };
    },
    isReadOnly: () => true,
    summarize: (i) => i.query,
    paths: () => [],
    call(i) {
      const docs = host.docs();
      const q = i.query.trim();
      let found: SearchDoc[];
      let unknown: string[] = [];
      if (q.toLowerCase().startsWith('select:')) {
        const wanted = q.slice(7).split(',').map((s) => s.trim()).filter(Boolean);
        const byName = new Map(docs.map((d) => [d.name, d]));
        found = wanted.map((w) => byName.get(w) ?? docs.find((d) => d.tool === w || `${d.server}__${d.tool}` === w)).filter((d): d is SearchDoc => d !== undefined);
        unknown = wanted.filter((w) => !found.some((d) => d.name === w || d.tool === w || `${d.server}__${d.tool}` === w));
      } else {
        found = new Bm25Index(docs).search(q, Math.min(MAX_RESULTS, i.max_results ?? DEFAULT_RESULTS));
      }
      const unknownNote = unknown.length ? `\nNo deferred tool is named ${unknown.join(', ')}.` : '';
      if (!found.length) return Promise.resolve({ content: `No deferred tool matches "${q}".${unknownNote} Try other words, or pick names from the list in this tool's description.` });
      host.load(found.map((d) => d.name));
      const lines = found.map((d) => `- ${d.name}: ${d.description.split('\n')[0]!.slice(0, 200)}`);
      return Promise.resolve({ content: `Loaded ${found.length} tool definition${found.length === 1 ? '' : 's'}; call them from your next step:\n${lines.join('\n')}${unknownNote}` });
    },
  };
}
