// The one reader of configuration JSON (MCP server files, Claude Code's settings, the trust
// file). Two things every such file needs. First, an error that names the place and never quotes
// the text: the parser's own message shows the characters around the error, and a file linked to
// ~/.git-credentials would print its first line. Second, a bound on nesting checked before any
// parser runs: a recursive parser (jsonc-parser) on 5,000 levels overflowed the stack and
// stopped every run in the folder.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** Far past any real settings file, far short of a parser's stack. */
export const MAX_JSON_DEPTH = 256;

/** `message` reads after "FILE is ": "not valid JSON (…)", "nested deeper than 256 levels". */
export type JsonParse = { ok: true; value: unknown } | { ok: false; message: string };

/** How deep arrays and objects nest, counted outside strings (and comments, with `comments`); stops counting past `limit`. */
function nestingDepth(text: string, comments: boolean, limit: number): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, past escapes.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (comments && c === 0x2f && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (comments && c === 0x2f && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line} column ${offset - before.lastIndexOf('\n')}`;
}

/** Whether a parsed value nests arrays and objects deeper than `limit`: walked without recursion, for a value some other parser made. */
export function nestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * JSON.parse for every other reader (transcript lines, state files, a model's tool input, an MCP
 * result): the same bound on nesting, checked before the parser runs, since what reads the value
 * after it (a schema, JSON.stringify on the next request) recurses too and overflowed the stack on
 * 20,000 levels (pass 37 B4). Throws a SyntaxError, as JSON.parse does, for text that is not JSON
 * or nests deeper than MAX_JSON_DEPTH. Lint keeps JSON.parse itself to this module.
 */
export function parseJson(text: string): unknown {
  if (nestingDepth(text, false, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new SyntaxError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  return JSON.parse(text) as unknown;
}

/**
 * The value of a JSON text (a leading byte order mark allowed: editors on Windows write one), or
 * why not, in words that never quote the text. `comments`: VS Code's form (comments, trailing commas).
 */
export function parseJsonText(text: string, opts: { comments?: boolean } = {}): JsonParse {
  const t = text.replace(/^\uFEFF/, '');
  const comments = opts.comments === true;
  if (nestingDepth(t, comments, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { ok: false, message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  if (!comments) {
    try {
      return { ok: true, value: JSON.parse(t) as unknown };
    } catch {
      // Located below, by a parser whose errors carry an offset instead of a quote.
    }
  }
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(t, errors, { allowTrailingComma: comments, disallowComments: !comments });
  const e = errors[0];
  if (!e) return comments ? { ok: true, value } : { ok: false, message: 'not valid JSON' };
  return { ok: false, message: `not valid JSON (${printParseErrorCode(e.error)} at ${lineColumn(t, e.offset)})` };
}
