import type { Node } from 'web-tree-sitter';

/** A word as the shell will pass it, when that is known before the command runs. */
export interface Word {
  /** The value after quote removal: `'r''m'`, `\rm` and `$'\x72m'` are all `rm`. */
  text: string;
  /**
   * false: the shell still changes it when it runs (an unquoted glob or brace), so `text` is only
   * how it is spelled, not what the command receives. A leading `~` is kept as written: it does not
   * change a program's base name, and rules spell it the same way.
   */
  literal: boolean;
  /**
   * The word as a pattern for bash's pathname expansion: unquoted characters as written, quoted and
   * escaped ones behind a backslash, so `"[a]"*` matches a file named `[a]x` as bash matches it.
   */
  pattern: string;
}

/** Characters that mean something in a glob pattern, a brace or a leading `~`: escaped when quoted. */
const PATTERN_SPECIAL = /[*?[\\\]~{},]/g;
/** `text` as a pattern that matches only itself. */
export const quotePattern = (text: string) => text.replace(PATTERN_SPECIAL, '\\$&');
const asQuoted = quotePattern;

/** Unquoted, these make the shell rewrite a word (globs, braces, extglob). */
const EXPANDING = new Set(['*', '?', '[', ']', '{', '}', '(', ')']);

function unquotedWord(raw: string): Word {
  let text = '';
  let pattern = '';
  let literal = true;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\') {
      const next = raw[i + 1];
      i++;
      // A backslash before a newline joins lines; before anything else it quotes that character.
      if (next !== undefined && next !== '\n') {
        text += next;
        pattern += asQuoted(next);
      }
      continue;
    }
    if (EXPANDING.has(c)) literal = false;
    text += c;
    pattern += c;
  }
  return { text, literal, pattern };
}

const quoted = (text: string): Word => ({ text, literal: true, pattern: asQuoted(text) });

/** Inside double quotes a backslash only quotes `$`, a backquote, `"`, `\` and a newline. */
function doubleQuoted(raw: string): string {
  return raw.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const C_ESCAPES: Record<string, string> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/**
 * `$'…'` as bash decodes it; a NUL ends the string, as it does in bash. `\xHH` and octal escapes
 * are bytes, not characters: `$'\xc3\xa9'` is the two bytes of `é`, the name a link may carry.
 * undefined when the bytes are not UTF-8, or when a character escape depends on the locale
 * (`\u00e9` outside ASCII): the checks could not name the file bash passes.
 */
function decodeAnsiC(body: string): string | undefined {
  const bytes: number[] = [];
  const text = (t: string) => bytes.push(...Buffer.from(t, 'utf8'));
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\' || i + 1 >= body.length) {
      text(c);
      continue;
    }
    const k = body[++i]!;
    if (C_ESCAPES[k] !== undefined) {
      text(C_ESCAPES[k]);
      continue;
    }
    const digits = (re: RegExp, max: number) => {
      let s = '';
      while (s.length < max && i + 1 < body.length && re.test(body[i + 1]!)) s += body[++i]!;
      return s;
    };
    let byte: number | undefined;
    if (/[0-7]/.test(k)) {
      byte = parseInt(k + digits(/[0-7]/, 2), 8) & 0xff;
    } else if (k === 'x') {
      const hex = digits(/[0-9a-fA-F]/, 2);
      if (hex === '') {
        text(`\\${k}`);
        continue;
      }
      byte = parseInt(hex, 16);
    } else if (k === 'u' || k === 'U') {
      const hex = digits(/[0-9a-fA-F]/, k === 'u' ? 4 : 8);
      if (hex === '') {
        text(`\\${k}`);
        continue;
      }
      const code = parseInt(hex, 16);
      if (code === 0) break;
      if (code > 0x7f) return undefined;
      byte = code;
    } else if (k === 'c') {
      // bash's control escapes have rules of their own (`\c?` is DEL, `\c\\` takes both
      // backslashes, a multibyte character gives up its first byte): not worked out here.
      return undefined;
    } else {
      text(`\\${k}`);
      continue;
    }
    if (byte === 0) break;
    bytes.push(byte);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}

/**
 * The word this node stands for, when the shell would not compute it at run time: plain and
 * escaped words, single, double (without expansions), `$'…'` and `$"…"` quotes, and any
 * concatenation of those. undefined for anything with an expansion or substitution in it.
 */
export function wordOf(node: Node): Word | undefined {
  switch (node.type) {
    case 'word':
      return unquotedWord(node.text);
    case 'number':
      return quoted(node.text);
    case 'raw_string':
      return quoted(node.text.slice(1, -1));
    case 'ansi_c_string': {
      const text = decodeAnsiC(node.text.slice(2, -1));
      return text === undefined ? undefined : quoted(text);
    }
    case 'string': {
      for (const child of node.children) if (!child || (child.type !== '"' && child.type !== 'string_content')) return undefined;
      // The text between the quotes, not the children's: the grammar leaves blanks alone out
      // (`"\t"` has no content node), and bash passes them.
      return quoted(doubleQuoted(node.text.slice(1, -1)));
    }
    // `$"…"` is looked up in a message catalog when it runs (TEXTDOMAIN, TEXTDOMAINDIR and the
    // locale, which the script itself may set to a catalog it carries): `$"ls"` may run as `rm`.
    case 'translated_string':
      return undefined;
    case 'concatenation': {
      let text = '';
      let pattern = '';
      let literal = true;
      for (const part of node.children) {
        const w = part ? wordOf(part) : undefined;
        if (!w) return undefined;
        text += w.text;
        pattern += w.pattern;
        literal &&= w.literal;
      }
      return { text, literal, pattern };
    }
    default:
      return undefined;
  }
}

/** The value when it is exactly known (no expansion left), else undefined. */
export function literalOf(node: Node): string | undefined {
  const w = wordOf(node);
  return w?.literal ? w.text : undefined;
}

/**
 * What the checks can tell about a word the shell computes: a glob or brace it expands to file
 * names (`text` as spelled, quotes removed), one plain `$NAME` / `${NAME}` with literal text
 * around it (`$HOME/.ssh`), or anything else.
 */
export type Shape =
  | { kind: 'glob'; text: string; pattern: string }
  | { kind: 'variable'; name: string; before: string; after: string }
  | { kind: 'computed'; ansiC?: true };

function plainVariable(node: Node): string | undefined {
  const parts = node.children;
  if (node.type === 'simple_expansion') return parts[1]?.type === 'variable_name' ? parts[1].text : undefined;
  if (node.type === 'expansion' && parts.length === 3 && parts[0]?.type === '${' && parts[1]?.type === 'variable_name' && parts[2]?.type === '}') return parts[1].text;
  return undefined;
}

export function shapeOf(node: Node): Shape {
  const w = wordOf(node);
  if (w && !w.literal) return { kind: 'glob', text: w.text, pattern: w.pattern };
  // A `$'…'` the checks could not decode (bytes that are not UTF-8) is known text, not computed when it runs.
  const computed: Shape = node.text.includes("$'") ? { kind: 'computed', ansiC: true } : { kind: 'computed' };
  let name: string | undefined;
  let before = '';
  let after = '';
  const pieces = (node.type === 'concatenation' ? node.children : [node]).flatMap((n) => (n?.type === 'string' ? n.children.filter((c) => c?.type !== '"') : [n]));
  for (const piece of pieces) {
    if (!piece) return computed;
    const variable = plainVariable(piece);
    if (variable !== undefined) {
      if (name !== undefined) return computed;
      name = variable;
      continue;
    }
    const text = piece.type === 'string_content' ? doubleQuoted(piece.text) : wordOf(piece)?.literal ? wordOf(piece)!.text : undefined;
    if (text === undefined) return computed;
    if (name === undefined) before += text;
    else after += text;
  }
  return name === undefined ? computed : { kind: 'variable', name, before, after };
}

const SAFE_UNQUOTED = /^[A-Za-z0-9_@%+=:,./-]+$/;

function quote(s: string): string {
  return SAFE_UNQUOTED.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const WORD_NODES = new Set(['word', 'number', 'raw_string', 'ansi_c_string', 'string', 'translated_string', 'concatenation']);

/** Text between two sibling nodes that ends a statement: a newline that is not a backslash-newline. */
function endsLine(gap: string): boolean {
  return gap.replace(/\\\n/g, '').includes('\n');
}

/**
 * One spelling for every way of writing the same command: literal words are re-quoted one way,
 * everything else keeps its text, comments go. Two commands with the same form run the same
 * thing, so a session grant can compare forms instead of raw strings. A newline between two
 * nodes is a token like `;`: `echo a\ntouch b` runs two commands, `echo a touch b` one.
 */
export function normalForm(root: Node, source: string): string {
  const tokens: string[] = [];
  const walk = (node: Node) => {
    if (node.type === 'comment') return;
    // An unquoted leading ~ expands and a quoted one does not: keep the spelling apart.
    if (WORD_NODES.has(node.type) && !node.text.startsWith('~')) {
      const w = wordOf(node);
      if (w?.literal) {
        tokens.push(`w${quote(w.text)}`);
        return;
      }
    }
    if (node.childCount === 0 || node.type === 'heredoc_body') {
      tokens.push(`t${node.text}`);
      return;
    }
    let previous: Node | undefined;
    for (const child of node.children) {
      if (!child) continue;
      if (previous && endsLine(source.slice(previous.endIndex, child.startIndex))) tokens.push('n');
      walk(child);
      previous = child;
    }
  };
  walk(root);
  return JSON.stringify(tokens);
}
