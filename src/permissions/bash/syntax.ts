import type { Node } from 'web-tree-sitter';

// What the walker in analyze.ts knows about tree-sitter-bash's node types, and checks on raw text
// where the grammar and bash may read a command differently.

export const PARSE_ERROR = 'text that does not parse as a shell command';

export const STRUCTURE = new Set(['program', 'list', 'pipeline', 'negated_command', 'subshell']);
export const WORDISH = new Set([
  'word', 'number', 'raw_string', 'ansi_c_string', 'string', 'string_content', 'translated_string', 'concatenation',
  'simple_expansion', 'variable_name', 'special_variable_name', 'brace_expression', 'file_descriptor',
  'heredoc_start', 'heredoc_end', 'heredoc_content',
]);
export const HAZARDS: Record<string, string> = {
  command_substitution: 'command substitution',
  process_substitution: 'process substitution',
  arithmetic_expansion: 'arithmetic expansion',
  function_definition: 'a function definition',
  if_statement: 'an if statement',
  while_statement: 'a loop',
  for_statement: 'a loop',
  c_style_for_statement: 'a loop',
  case_statement: 'a case statement',
  test_command: 'a [ ] or [[ ]] test (it evaluates arithmetic)',
  declaration_command: 'a declaration (export, declare, local…)',
  unset_command: 'unset',
  variable_assignments: 'variable assignments',
  ERROR: PARSE_ERROR,
};
export const OUTPUT_OK = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
export const OUTPUT_OPS = new Set(['>', '>>', '&>', '&>>', '>|']);

/** Control characters other than tab and newline: the grammar and bash may split words apart at them. */
export function hasControl(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0x7f) return true;
  }
  return false;
}


/** A backslash-newline with no space on either side: inside a word, where bash removes it. */
export function gluedContinuation(source: string): boolean {
  for (let i = source.indexOf('\\\n'); i !== -1; i = source.indexOf('\\\n', i + 2)) {
    let run = 0;
    while (i - run - 1 >= 0 && source[i - run - 1] === '\\') run++;
    if (run % 2 === 1) continue;
    const before = source[i - run - 1];
    const after = source[i + 2];
    if (before !== undefined && after !== undefined && !/\s/.test(before) && !/\s/.test(after)) return true;
  }
  return false;
}

export function isPlainExpansion(node: Node): boolean {
  const parts = node.children;
  return (
    parts.length === 3 &&
    parts[0]?.type === '${' &&
    (parts[1]?.type === 'variable_name' || parts[1]?.type === 'special_variable_name') &&
    parts[2]?.type === '}'
  );
}

export function clip(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
