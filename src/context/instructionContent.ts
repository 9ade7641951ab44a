import { Lexer, type Token } from 'marked';
import { FrontmatterError, hasFrontmatter, parseFrontmatter } from '../base/frontmatter';
import { readPathsField, type PathsField } from './rulePaths';

export type { PathsField } from './rulePaths';

export interface InstructionContent {
  body: string;
  paths: PathsField;
  /** The frontmatter could not be read (broken, or a language that is never run). */
  frontmatterProblem?: string;
  /** The Markdown could not be read (nested too deep): the text is kept whole, and its `@` includes are not followed. */
  markdownProblem?: string;
}

/**
 * marked's lexer recurses once per nested block quote: 6,000 `>` in a cloned CLAUDE.md overflowed
 * the stack and stopped every start in the folder (pass 38 C3). Undefined when it cannot read the text.
 */
function lexed(text: string): Token[] | undefined {
  try {
    return new Lexer({ gfm: true }).lex(text);
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

const TOO_DEEP = 'its Markdown nests too deep to read (thousands of quote or list levels), so it is kept as written and its @ includes are not followed';

/** Strips frontmatter (reading `paths:`) and block-level HTML comments outside code. */
export function parseInstructionContent(raw: string): InstructionContent {
  let body = raw;
  let paths: PathsField = { kind: 'none' };
  let frontmatterProblem: string | undefined;
  if (hasFrontmatter(raw)) {
    try {
      const fm = parseFrontmatter(raw, { quoteOnRetry: true });
      body = fm.content;
      paths = readPathsField(fm.data);
    } catch (e) {
      // Broken frontmatter: read as none (a rule then applies everywhere), and the block is left
      // out of the text, as the reference CLI does.
      frontmatterProblem = e instanceof FrontmatterError ? e.message : `frontmatter could not be parsed (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
      const block = /^---[ \t]*\r?\n[\s\S]*?\n---[ \t]*(?:\r?\n|$)/.exec(raw);
      if (block) body = raw.slice(block[0].length);
    }
  }
  const tokens = lexed(body);
  if (!tokens) return { body: body.trim(), paths, ...(frontmatterProblem ? { frontmatterProblem } : {}), markdownProblem: TOO_DEEP };
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
  const tokens = lexed(markdown);
  if (!tokens) return [];
  // Walked with a list, not by recursion: the tree is as deep as the text nests.
  const pending: Token[] = [...tokens].reverse();
  for (let t = pending.pop(); t !== undefined; t = pending.pop()) {
    if (t.type === 'code' || t.type === 'codespan' || t.type === 'html') continue;
    const children = (t as { tokens?: Token[] }).tokens;
    const items = (t as { items?: Token[] }).items;
    // Children before the next sibling, items before children: the order the recursion had.
    if (children?.length) pending.push(...[...children].reverse());
    else if (t.type === 'text') scan((t as { text: string }).text);
    if (items?.length) pending.push(...[...items].reverse());
  }
  return [...new Set(found)];
}
