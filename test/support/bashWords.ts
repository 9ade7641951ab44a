import { fc } from './fastCheck';

// Shell words drawn from every quoting form bash has (plain, escaped, '…', "…", $'…', $"…"), with
// operators and comment marks inside quotes, for the properties that hold the checks' reading of a
// script to bash's own (test/unit/permissions/*AgainstBash.property.test.ts).

const plain = fc.constantFrom('a', 'b', 'Z', '0', '/', '.', '-', '=', ':', ',', '+', '@', '%', '^', 'é', '_');
const escaped = fc.constantFrom('\\a', '\\ ', '\\"', "\\'", '\\\\', '\\$', '\\`', '\\\n', '\\n', '\\x', '\\é', '\\;', '\\|', '\\&', '\\#', '\\~');
// Operators inside quotes: where the grammar ends a quote early or late, bash runs a command it did not see.
const singleBody = fc.array(fc.constantFrom('a', ' ', '\\', '"', '$x', '`', '\n', 'é', '*', '~', '{a,b}', '; b ', '#'), { maxLength: 4 }).map((p) => `'${p.join('')}'`);
const doubleBody = fc.array(fc.constantFrom('a', ' ', "'", '\\a', '\\\\', '\\"', '\\$', '\\`', '\\\n', '\\n', 'é', '*', '~', '{a,b}', '\t', '; b ', '#', "$'", "$'\\\\'", '$"'), { maxLength: 4 }).map((p) => `"${p.join('')}"`);
const ansiEscape = fc.constantFrom(
  'a', ' ', '"', "\\'", '\\\\', '\\"', '\\?', '\\n', '\\t', '\\e', '\\E', '\\a', '\\v', '\\f', '\\r', '\\b', '\\q',
  '\\x41', '\\x4', '\\x', '\\xc3\\xa9', '\\xff', '\\101', '\\7', '\\0101', '\\1010', '\\u00e9', '\\u41', '\\U00000041', '\\u', '\\u2028',
  '\\cA', '\\c?', '\\c\\\\', '\\c', '\\x00', '\\0', '\\u0000', 'é', '$x', '*', '; b ', '#', '"', '\\',
);
const ansiBody = fc.array(ansiEscape, { maxLength: 4 }).map((p) => `$'${p.join('')}'`);
const translated = fc.array(fc.constantFrom('a', ' ', '\\"', 'é'), { maxLength: 3 }).map((p) => `$"${p.join('')}"`);
const piece = fc.oneof({ weight: 3, arbitrary: plain }, { weight: 2, arbitrary: escaped }, singleBody, doubleBody, { weight: 2, arbitrary: ansiBody }, translated);
// A word never starts with `#` (a comment) or `~`, `=`: the first two are not this property's subject, and a
// leading word with `=` is an assignment.
export const quotingWord = fc.array(piece, { minLength: 1, maxLength: 5 }).map((ps) => ps.join('')).filter((w) => !/^[#~]/.test(w));

