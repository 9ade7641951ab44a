/** The most of a tool result the panel shows; the model gets the whole result. */
const VIEW_RESULT_CHARS = 20_000;
/** Of what is kept, the share taken from the end: where Bash puts its exit code and errors land. */
const TAIL_SHARE = 0.25;

/**
 * A long tool result cut for the panel: its beginning and its end, with what was left out
 * counted in between, so an exit code or a final error line is still there to read.
 */
export function clipResult(text: string, max: number = VIEW_RESULT_CHARS): string {
  if (text.length <= max) return text;
  const tailChars = Math.floor(max * TAIL_SHARE);
  let headEnd = max - tailChars;
  let tailStart = text.length - tailChars;
  // Never cut a surrogate pair in half.
  if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  const omitted = tailStart - headEnd;
  return `${text.slice(0, headEnd)}\n… (${omitted} characters left out) …\n${text.slice(tailStart)}`;
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;
