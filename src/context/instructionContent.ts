import { Lexer, type Token } from 'marked';
import { FrontmatterError, hasFrontmatter, parseFrontmatter } from '../base/frontmatter';

/** What a rule's `paths:` frontmatter says: no key, usable globs, or something unusable. */
export type PathsField = { kind: 'none' } | { kind: 'globs'; globs: string[] } | { kind: 'invalid'; problem: string };

export interface InstructionContent {
  body: string;
  paths: PathsField;
  /** The frontmatter could not be read (broken, or a language that is never run). */
  frontmatterProblem?: string;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list with something other than text in it';
  return typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}

/**
 * `paths:` must be a string (comma-separated globs) or a list of strings. Anything else is
 * reported and, for a rule, keeps it out: a rule whose condition cannot be read must not be
 * sent everywhere as if it had none.
 */
export function readPathsField(data: Record<string, unknown>): PathsField {
  if (!Object.prototype.hasOwnProperty.call(data, 'paths')) return { kind: 'none' };
  const value: unknown = data.paths;
  let list: string[];
  if (typeof value === 'string') list = value.split(',');
  else if (Array.isArray(value) && value.every((x): x is string => typeof x === 'string')) list = value;
  else return { kind: 'invalid', problem: `paths: is ${describe(value)}, not a glob or a list of globs` };
  const globs = list.map((g) => g.trim()).filter(Boolean);
  return globs.length ? { kind: 'globs', globs } : { kind: 'invalid', problem: 'paths: names no glob' };
}

/** Strips frontmatter (reading `paths:`) and block-level HTML comments outside code. */
export function parseInstructionContent(raw: string): InstructionContent {
  let body = raw;
  let paths: PathsField = { kind: 'none' };
  let frontmatterProblem: string | undefined;
  if (hasFrontmatter(raw)) {
    try {
      const fm = parseFrontmatter(raw);
      body = fm.content;
      paths = readPathsField(fm.data);
    } catch (e) {
      // Broken frontmatter: the caller decides (a CLAUDE.md keeps its text; a rule is skipped).
      frontmatterProblem = e instanceof FrontmatterError ? e.message : `frontmatter could not be parsed (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
    }
  }
  const tokens = new Lexer({ gfm: true }).lex(body);
  const kept = tokens.filter((t) => !(t.type === 'html' && (t as { block?: boolean }).block !== false && /^\s*<!--[\s\S]*-->\s*$/.test(t.raw)));
  if (kept.length !== tokens.length) body = kept.map((t) => t.raw).join('').replace(/\n{3,}/g, '\n\n');
  return { body: body.trim(), paths, ...(frontmatterProblem ? { frontmatterProblem } : {}) };
}

const INCLUDE = /(?:^|[\s(])@((?:~\/|\.{1,2}\/|\/)?[^\s`"'<>()[\]]+)/g;

/** `@path` references in prose: never inside fenced or inline code. */
export function extractIncludes(markdown: string): string[] {
  const found: string[] = [];
  const scan = (text: string) => {
    for (const m of text.matchAll(INCLUDE)) {
      const p = m[1]!.replace(/[.,;:!?]+$/, '');
      // An e-mail address or a decorator is not an include.
      if (p.includes('@') || !/[./]/.test(p)) continue;
      found.push(p);
    }
  };
  const walk = (tokens: readonly Token[]) => {
    for (const t of tokens) {
      if (t.type === 'code' || t.type === 'codespan' || t.type === 'html') continue;
      const children = (t as { tokens?: Token[] }).tokens;
      const items = (t as { items?: Token[] }).items;
      if (items?.length) walk(items);
      if (children?.length) walk(children);
      else if (t.type === 'text') scan((t as { text: string }).text);
    }
  };
  walk(new Lexer({ gfm: true }).lex(markdown));
  return [...new Set(found)];
}
