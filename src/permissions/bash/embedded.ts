import { lexicalJoin } from '../../fs/paths';

// A word may carry a file inside it, where a program finds one: after `=`, glued to a short
// option, after curl's `@`, as a file: URL's path. Each check that judges a word's files judges these too.

/** The texts in one word that may name a file: the word, a value after `=` (`--in=x`, dd's `if=x`), after `@` or `<` (curl), a glued short option's value, a file: URL's path. */
export function embedded(word: string): string[] {
  const out = new Set([word]);
  const eq = word.indexOf('=');
  if (eq > 0) out.add(word.slice(eq + 1));
  // Short options run together take their value after any of their letters (`-rt.git` is `-r -t .git`).
  const letters = /^-[A-Za-z]+/.exec(word)?.[0].length ?? 0;
  for (let k = 2; k <= letters && k < word.length; k++) out.add(word.slice(k));
  // curl's `name@file` (`--data-urlencode k@~/.ssh/id_rsa`, `--url-query`, `-F k=@f`): the file after the first @.
  // Any name before it (`x:y@f`, `a b@f`): what curl reads is after the first @.
  const at = /^[^@]*@(.+)$/.exec(word);
  if (at) out.add(at[1]!);
  for (const w of [...out]) {
    const bare = w.replace(/^[@<]/, '');
    out.add(bare);
    // The aws CLI reads `file://` and `fileb://` values as paths and puts the home for `~` itself
    // (`--cli-input-json file://~/.ssh/id_rsa`), and takes one without a leading slash as relative.
    const aws = /^fileb?:\/\/((?:~|\.{1,2})(?:\/.*)?|[^/].*)$/i.exec(bare);
    if (aws) out.add(aws[1]!);
    // curl leaves out a file: URL's query and fragment.
    const url = /^file:(?:\/\/[^/?#]*)?(\/[^?#]*)?/i.exec(bare);
    if (url) {
      let path = url[1] ?? '/';
      try {
        path = decodeURIComponent(path);
      } catch {
        // kept as written
      }
      // A URL's dot segments are removed as text by the program that reads it (curl), not walked.
      out.add(path).add(lexicalJoin('/', path));
    }
  }
  out.delete('');
  return [...out];
}
