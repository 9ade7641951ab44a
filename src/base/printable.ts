/**
 * Text from a repository or a model, made safe to print to a terminal: control characters
 * (C0, DEL, C1, and the bidirectional overrides) are written as escapes, so an escape sequence
 * in a file cannot move the cursor, rewrite the screen or set the clipboard (OSC 52).
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
