import type { Node } from 'web-tree-sitter';
import { clip } from './syntax';

// Places where tree-sitter-bash and bash are known to read the same text differently. Each one
// found makes the command ask (and `unseen` for deny rules): the commands the walker copied out
// of the tree may not be the ones bash runs.

/** Leaves whose text may hold a newline that bash also keeps inside one word. */
const MULTILINE_LEAVES = new Set(['string_content', 'raw_string', 'ansi_c_string', 'heredoc_content', 'heredoc_body', 'comment']);

/** Nodes whose children are the words of one command: a newline between them ends the command in bash. */
const ONE_LINE = new Set(['command', 'declaration_command', 'unset_command', 'file_redirect', 'herestring_redirect']);

/** Nodes whose named children are a command's words (and its redirections). */
const WORD_LISTS = new Set(['command', 'declaration_command', 'unset_command']);
/** Children of those that may touch a word without being part of it. */
const NOT_WORDS = new Set(['file_redirect', 'herestring_redirect', 'heredoc_redirect', 'heredoc_body', 'comment']);

/** Here-doc pieces stand apart from the line they are on: the text between them is other commands. */
const HEREDOC_PARTS = new Set(['heredoc_redirect', 'heredoc_body', 'heredoc_start', 'heredoc_end', 'heredoc_content']);

/** Redirections that end in a word: what touches it after is part of that word. */
const TARGET_REDIRECTS = new Set(['file_redirect', 'herestring_redirect']);

/** A here-doc delimiter bash and the grammar agree on: one plain word, or one fully quoted word. */
const PLAIN_DELIMITER = /^[\w.,:+@%/=-]+$/;
const QUOTED_DELIMITER = /^(?:'[\w.,:+@%/=-]*'|"[\w.,:+@%/=-]*"|\\[\w.,:+@%/=-]+)$/;

/** A newline that bash reads as one: not removed as a backslash-newline (an odd run of backslashes before it). */
function hasUnescapedNewline(text: string): boolean {
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    let run = 0;
    while (i - run - 1 >= 0 && text[i - run - 1] === '\\') run++;
    if (run % 2 === 0) return true;
  }
  return false;
}

/** Where bash reads a pattern: `[[ … ]]`, and (globs only) a case item's patterns. */
function insideTest(node: Node): boolean {
  for (let p = node.parent; p; p = p.parent) if (p.type === 'test_command' || (node.type === 'extglob_pattern' && p.type === 'case_item')) return true;
  return false;
}

/** Nodes that are one word to bash: no blank may stand between their parts. */
const ONE_WORD = new Set(['variable_assignment', 'concatenation']);

/** A blank bash splits at: not escaped by an odd run of backslashes. */
function hasUnescapedBlank(text: string): boolean {
  for (let i = text.search(/[ \t]/); i !== -1; i = text.slice(i + 1).search(/[ \t]/) === -1 ? -1 : i + 1 + text.slice(i + 1).search(/[ \t]/)) {
    let run = 0;
    while (i - run - 1 >= 0 && text[i - run - 1] === '\\') run++;
    if (run % 2 === 0) return true;
  }
  return false;
}

/** bash starts a comment only where a word could start: after an unescaped blank or operator character. */
function startsWord(source: string, at: number): boolean {
  if (at === 0) return true;
  if (!/[\s;&|()<>]/.test(source[at - 1]!)) return false;
  let run = 0;
  while (at - run - 2 >= 0 && source[at - run - 2] === '\\') run++;
  return run % 2 === 0;
}

function heredoc(node: Node, source: string, out: string[]): void {
  const start = node.children.find((c) => c?.type === 'heredoc_start');
  const body = node.children.find((c) => c?.type === 'heredoc_body');
  const end = node.children.find((c) => c?.type === 'heredoc_end');
  if (!start) return;
  const raw = start.text;
  const plain = PLAIN_DELIMITER.test(raw);
  if (!plain && !QUOTED_DELIMITER.test(raw)) {
    // bash removes quotes anywhere in the word (E"O"F ends at EOF); the grammar waits for the word as written.
    out.push(`a here-doc delimiter that is not one plain or one quoted word (${clip(raw)})`);
    return;
  }
  const delimiter = plain ? raw : raw.startsWith('\\') ? raw.slice(1) : raw.slice(1, -1);
  const dash = node.children.some((c) => c?.type === '<<-');
  const text = body?.text ?? '';
  if (body && /\\\n/.test(source.slice(start.endIndex, body.startIndex))) {
    // The grammar joins a backslash-newline after `<<EOF` into the command line; bash starts the
    // body on the next line, where that backslash-newline is part of the body.
    out.push('a backslash-newline between a here-doc operator and its body');
  }
  if (plain && /\\\n/.test(text)) {
    // In an unquoted body bash joins a backslash-newline before it looks for the delimiter line.
    out.push('a backslash-newline in an unquoted here-doc');
  }
  if (!end || end.text.replace(/^\t+/, '') !== delimiter) {
    out.push(`a here-doc whose end the grammar and bash may see in different places (${clip(raw)})`);
    return;
  }
  const lines = text.split('\n').slice(0, -1);
  if (lines.some((l) => (dash ? l.replace(/^\t+/, '') : l) === delimiter)) {
    out.push(`a here-doc that bash ends earlier than the grammar (${clip(raw)})`);
  }
}

/**
 * Where bash ends a `$'…'` string: a backslash always takes the next character with it (`\\`
 * too), and the first other `'` closes it. The grammar's token only pairs `\'`, so it read
 * `$'\\'; rm x; echo '` as one string where bash ends it after `\\` and runs `rm x`.
 */
function ansiCEnd(text: string): number {
  for (let i = 2; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === "'") return i + 1;
  }
  return -1;
}

/**
 * Reasons to believe bash reads `source` differently from the tree: a newline inside a word
 * (`echo a\n\\touch x` is one echo to the grammar), a newline between a command's words, a
 * here-doc whose delimiter or body bash reads otherwise. Empty when none was found.
 */
export function divergences(root: Node, source: string): string[] {
  const out: string[] = [];
  const visit = (node: Node) => {
    if (node.type === 'heredoc_redirect') heredoc(node, source, out);
    if (node.type === 'command_substitution' || node.type === 'process_substitution') {
      // bash 5.2 drops a `;` after a here-doc inside `$(…)`: `$(a <<EOF … EOF↵b 1 ; c 2)` runs
      // `b 1 c 2`. What follows a here-doc's end there may be other commands than the tree's.
      const ends = node.descendantsOfType('heredoc_end');
      const last = ends[ends.length - 1];
      const rest = last ? source.slice(last.endIndex, node.endIndex).replace(/\)$/, '') : '';
      if (/\S/.test(rest)) out.push(`commands after a here-doc inside ${clip(node.text.slice(0, 2))}…), which bash may join (${clip(rest.trim())})`);
    }
    // bash splits words at unquoted blanks once `\\↵` is gone; the grammar's word token may run
    // on past one (`LANG=\\↵ sh echo` is the value `\\↵ sh` to it, and `sh echo` to bash).
    if (node.type === 'word' && hasUnescapedBlank(node.text.replace(/\\\n/g, ''))) out.push(`a blank inside the word ${clip(node.text)}`);
    // A digit right before `>` is the descriptor to bash (`2>f`); after a `\\↵` the grammar may take
    // it as a word of the command and the redirection as stdout's.
    if (node.type.endsWith('_redirect') && /(?:^|[\s;|(])(?:[0-9]+|\{\w+\})$/.test(source.slice(Math.max(0, node.startIndex - 40), node.startIndex))) out.push(`a redirection whose descriptor the grammar reads as a word (${clip(source.slice(Math.max(0, node.startIndex - 4), node.endIndex))})`);
    // A pattern or regex is only ever the right side of `[[ … ]]` (or a case pattern) to bash; elsewhere the grammar
    // has read words as one (`( echo == ; rm x )` hid the rm in a "regex").
    if ((node.type === 'regex' || node.type === 'extglob_pattern') && !insideTest(node)) out.push(`a pattern outside [[ ]] (${clip(node.text)})`);
    if (node.type === 'ansi_c_string' && ansiCEnd(node.text) !== node.text.length) out.push(`a $'…' string bash ends elsewhere (${clip(node.text)})`);
    if (node.type === 'comment' && !startsWord(source, node.startIndex)) out.push(`a # that bash reads as part of a word (${clip(node.text)})`);
    if ((node.childCount === 0 || node.type === 'word') && !MULTILINE_LEAVES.has(node.type) && /\S/.test(node.text) && hasUnescapedNewline(node.text)) {
      out.push(`a newline inside the word ${clip(node.text)}`);
    }
    if (WORD_LISTS.has(node.type)) {
      // bash splits words only at blanks: two of the grammar's words that touch are one to bash
      // (`/[\p]roc/1/environ` came out as `/[`, `p]roc/1/[`, `environ`, and no check saw /proc).
      // Unnamed children count too: the grammar files `$''\$` as a string and a bare `$` token.
      for (let i = 1; i < node.childCount; i++) {
        const a = node.child(i - 1);
        const b = node.child(i);
        // A redirection's target touching a word after it is one word to bash too (`<<< ''\\aa`).
        if (!a || !b || (NOT_WORDS.has(a.type) && !TARGET_REDIRECTS.has(a.type)) || NOT_WORDS.has(b.type)) continue;
        // A backslash-newline between them is removed before words are split: they still touch.
        if (source.slice(a.endIndex, b.startIndex).replace(/\\\n/g, '') === '') out.push(`a word the grammar splits where bash reads one (${clip(a.text + b.text)})`);
      }
    }
    // The grammar takes a backslash-blank as a blank between words (`printf \ a` gives `a`), and
    // drops a `-` before a here-doc (`b - <<EOF` is `b` alone); to bash both are words. Text the
    // tree skips, between a node's children or at either end inside it, is only ever blanks and joined lines.
    if (node.childCount > 0 && !HEREDOC_PARTS.has(node.type)) {
      // Up to a here-doc's operator: its body stands apart from the line, and other commands may sit between.
      const edges = [node.startIndex];
      let end = node.endIndex;
      for (const child of node.children) {
        if (!child) continue;
        if (HEREDOC_PARTS.has(child.type)) {
          end = child.startIndex;
          break;
        }
        edges.push(child.startIndex, child.endIndex);
      }
      edges.push(end);
      for (let i = 0; i + 1 < edges.length; i += 2) {
        const gap = edges[i + 1]! > edges[i]! ? source.slice(edges[i], edges[i + 1]) : '';
        if (!/^(?:[ \t\r\n]|\\\n)*$/.test(gap)) out.push(`text the grammar skips between words (${clip(gap)})`);
        // Inside what bash reads as one word, a blank ends it (`LANG=\\↵ sh echo` sets LANG to nothing and runs sh).
        else if (ONE_WORD.has(node.type) && gap.replace(/\\\n/g, '') !== '') out.push(`a blank inside the word ${clip(node.text)}`);
      }
    }
    if (ONE_LINE.has(node.type)) {
      for (let i = 1; i < node.childCount; i++) {
        const a = node.child(i - 1);
        const b = node.child(i);
        if (!a || !b || a.type === 'heredoc_body' || b.type === 'heredoc_body') continue;
        if (hasUnescapedNewline(source.slice(a.endIndex, b.startIndex))) out.push(`a newline inside the command ${clip(node.text)}`);
      }
    }
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return [...new Set(out)];
}
