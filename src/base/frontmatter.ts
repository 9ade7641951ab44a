// The one place that parses frontmatter (memory topic files, rules, session notes). gray-matter
// evaluates `---js` / `---javascript` frontmatter with eval, and a cloned repository or a model
// can write such a file: here only YAML (its safe schema) and JSON are read, every evaluating
// engine refuses, and a lint rule keeps gray-matter out of every other file.
import matter from 'gray-matter';

export class FrontmatterError extends Error {}

/** Languages a frontmatter block may declare after its opening `---`; empty means YAML. */
const READABLE = new Set(['', 'yaml', 'yml', 'json']);

const refuse = (language: string) => ({
  parse: (): never => {
    throw new FrontmatterError(`${language} frontmatter is code and is never run; only YAML or JSON frontmatter is read`);
  },
  stringify: (): never => {
    throw new FrontmatterError(`${language} frontmatter is not written`);
  },
});

// Every engine that would run code, under each name gray-matter resolves to it.
const REFUSING_ENGINES = Object.fromEntries(['js', 'javascript', 'coffee', 'coffeescript', 'cson'].map((name) => [name, refuse(name)]));

// Also the library's own table, so that even a call that bypasses this file cannot evaluate.
Object.assign((matter as unknown as { engines: Record<string, unknown> }).engines, REFUSING_ENGINES);

export interface Frontmatter {
  data: Record<string, unknown>;
  /** The text after the frontmatter (the whole text when there is none). */
  content: string;
  /** True when the text opened with a frontmatter block. */
  present: boolean;
}

/** The language named after the opening delimiter (`---json` → `json`), lower-cased. */
function declaredLanguage(text: string): string {
  const end = text.search(/\r?\n/);
  return (end < 0 ? text.slice(3) : text.slice(3, end)).trim().toLowerCase();
}

/** True when the text opens with a `---` frontmatter delimiter. */
export function hasFrontmatter(text: string): boolean {
  return /^---(?!-)/.test(text);
}

/**
 * Splits frontmatter from the body. Throws FrontmatterError for a block that does not parse,
 * that is not a mapping, or that declares a language other than YAML or JSON. `quoteOnRetry`
 * (instruction files, read as Claude Code reads them): YAML that does not parse is read once
 * more with its special-character values quoted.
 */
export function parseFrontmatter(text: string, options: { quoteOnRetry?: boolean } = {}): Frontmatter {
  if (!hasFrontmatter(text)) return { data: {}, content: text, present: false };
  const language = declaredLanguage(text);
  if (!READABLE.has(language)) throw new FrontmatterError(`frontmatter in "${language}" is not read: only YAML or JSON frontmatter is`);
  let parsed: { data: unknown; content: string };
  try {
    // Options are always passed: gray-matter caches results (and skips parsing) without them.
    parsed = matter(text, { language: 'yaml', engines: REFUSING_ENGINES });
  } catch (err) {
    if (err instanceof FrontmatterError) throw err;
    const retried = options.quoteOnRetry && language === '' ? reparseQuoted(text) : undefined;
    if (!retried) throw new FrontmatterError(`frontmatter does not parse: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    parsed = retried;
  }
  const data = parsed.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new FrontmatterError('frontmatter must be a mapping of keys to values');
  if (!withinValues(data, MAX_VALUES)) throw new FrontmatterError(`frontmatter holds more than ${MAX_VALUES} values, counting each use of a YAML alias`);
  return { data: data as Record<string, unknown>, content: parsed.content, present: true };
}

/**
 * Values a frontmatter block may hold, each use of an alias counted. YAML's aliases share one
 * parsed value, so 600 bytes of nested `*a` parse at once and stand for 10^10 strings: every
 * reader that walks the data (a rule's `paths:`) would walk them all, unbounded.
 */
const MAX_VALUES = 10_000;

/** Whether walking `value` as its readers do (aliases once per use) meets at most `budget` values. */
function withinValues(value: unknown, budget: number): boolean {
  let left = budget;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (--left < 0) return false;
    if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') stack.push(...Object.values(v as Record<string, unknown>));
  }
  return true;
}

// A plain value YAML reads as something else, or not at all: an alias (`*`), an anchor (`&`), a tag
// (`!`), a flow collection, a comment, a block scalar, a reserved character, or ": " inside it.
const SPECIAL = /[{}[\]*&#!|>%@`]|: /;

/**
 * What Claude Code does with frontmatter YAML refuses (`paths: **\/*.ts`, unquoted, reads as an
 * alias): each simple `key: value` line whose value holds a character YAML treats specially is
 * quoted, leading tabs become spaces, and the block is read once more. Files written for it are
 * then read the same here.
 */
function reparseQuoted(text: string): { data: unknown; content: string } | undefined {
  const block = /^---[^\n]*\n([\s\S]*?)\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!block) return undefined;
  const lines = block[1]!.split('\n').map((line) => {
    const m = /^([a-zA-Z_-]+):\s+(\S.*)$/.exec(line);
    if (!m) return line;
    const value = m[2]!;
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) return line;
    if (!SPECIAL.test(value)) return line;
    return `${m[1]}: "${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  });
  const quoted = lines.join('\n').replace(/^\t+/gm, (tabs) => '  '.repeat(tabs.length));
  try {
    const data = matter(`---\n${quoted}\n---\n`, { language: 'yaml', engines: REFUSING_ENGINES }).data;
    return { data, content: text.slice(block[0].length) };
  } catch {
    return undefined;
  }
}

/** YAML frontmatter followed by the body; the body is never parsed. */
export function stringifyFrontmatter(body: string, data: Record<string, unknown>): string {
  return matter.stringify({ content: body }, data, { language: 'yaml', engines: REFUSING_ENGINES });
}
