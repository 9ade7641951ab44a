// The regular-expression engine for the JSON Schema patterns a server writes (a tool's
// outputSchema). JavaScript's RegExp backtracks: `^(a|a)*$` against forty a's and a "!" ran for
// minutes on the main thread, and signals could not stop it. RE2 (re2js) takes time linear in the
// input. It lives in the host bundle, which has re2js already for Grep and Glob, and is handed to
// the connection layer: its own bundle would otherwise carry a second copy.
import { RE2JS } from 're2js';

export type PatternTest = (pattern: string) => { test(s: string): boolean };

/** A pattern RE2 cannot run (look-around, back-references) is not checked: the output is the server's, and refusing it would fail the call for our engine's limits. */
export const re2Pattern: PatternTest = (pattern) => {
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch {
    return { test: () => true };
  }
};
