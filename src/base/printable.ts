/**
 * Characters past ASCII a terminal acts on, or that make text read as other text: the
 * bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E/F, U+202A-E,
 * U+2066-9), and the line and paragraph separators (U+2028/9), which some terminals and viewers
 * break lines at. One list for every place the CLI prints text it did not write.
 */
export const UNSAFE_BEYOND_ASCII = '\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069';

const UNSAFE = new RegExp(`[\u0000-\u001f\u007f-\u009f${UNSAFE_BEYOND_ASCII}]`, 'g');

/** Whether printable() would change the text. */
export function hasUnsafe(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text);
}

/**
 * Text from a repository or a model, made safe to print to a terminal: control characters
 * (C0, DEL, C1, and the bidirectional overrides) are written as escapes, so an escape sequence
 * in a file cannot move the cursor, rewrite the screen or set the clipboard (OSC 52).
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * The same, for text shown in a box as well as a terminal (an MCP server's approval text): a
 * newline is written `\n`, so forty of them cannot push what follows out of view.
 */
export function visible(text: string): string {
  return printable(text.replace(/[\n\r\t]/g, (c) => NAMED[c]!));
}
