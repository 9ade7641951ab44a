import { expand } from 'brace-expansion';

// Brace expansion as bash does it, within bounds the library keeps to. brace-expansion gives up
// on deeply repeated forms (bash's `{a}}…},x}` quirk, past 1,000 rewrites) and returns the word
// unexpanded, where bash still splits it into words: one of them a path the checks never saw.
// A word with more braces than anyone writes by hand is therefore not expanded here at all.

/** More unescaped braces than this in one word, and what it expands to is unknown. */
const MAX_BRACES = 32;
/** More words than this from one word, and it is unknown (bash would pass them all). */
const MAX_WORDS = 1_000;

/** The words bash makes of `pattern` by brace expansion (escapes kept); undefined past the bounds. */
export function braceWords(pattern: string): string[] | undefined {
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === '{' || pattern[i] === '}') braces++;
  }
  if (braces > MAX_BRACES) return undefined;
  const words = expand(pattern);
  return words.length > MAX_WORDS ? undefined : words;
}
