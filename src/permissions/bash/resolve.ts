import { commandBase, isDescriptorPath, isKnownProgram, SHELLS, sourcesInput, WRAPPERS, type Opaque, type SimpleCommand, type Words } from './commands';
import { clip } from './syntax';
import type { Shape } from './words';

/** What deny and ask rules are matched against for one simple command. */
export interface Resolution {
  /** The command and every command it runs through a wrapper, a shell or eval, names reduced to their base. */
  runs: SimpleCommand[];
  /** What cannot be seen into before the command runs (a computed name, a script in a variable…). */
  unseen: string[];
  /** A shell with no script argument: it runs what it reads from its input (a pipe or a here-doc). */
  shellReadsInput: boolean;
  /** Programs not known to be inert, with what they are handed (see Opaque). */
  opaque: Opaque[];
  /** Names spelled by the scripts read on the way (see fromEnvironment). */
  mentions: Set<string>;
  /** Files those scripts redirect from and to (`bash -c 'echo x > ~/.bashrc'`). */
  readsFrom: Array<{ text: string | undefined; shape?: Shape }>;
  writesTo: Array<{ text: string | undefined; shape?: Shape }>;
  assigned: Array<{ name: string; value: string }>;
}

/** What reading a script found. */
export interface Found {
  runs: readonly SimpleCommand[];
  unseen: readonly string[];
  opaque: readonly Opaque[];
  mentions: ReadonlySet<string>;
  readsFrom?: ReadonlyArray<{ text: string | undefined; shape?: Shape }>;
  writesTo?: ReadonlyArray<{ text: string | undefined; shape?: Shape }>;
  assigned?: ReadonlyArray<{ name: string; value: string }>;
}

/** Reads a script that a shell, eval or a wrapper will run; undefined when it does not parse cleanly. */
export type InnerScript = (script: string) => Found | undefined;

/** A wrapper with more words than this is not searched for the command it runs (it asks): each word starts a view. */
const MAX_WRAPPED_WORDS = 64;
const MAX_HOPS = 8;
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** Longer option words are not split into their possible values (the command is unseen instead). */
const MAX_GLUED_OPTION = 256;

/**
 * Values a wrapper's word may carry that the wrapper may run: `--command=rm x` gives `rm x`;
 * `-qcrm` may be `-q -c rm` or `-q -crm`…, so every tail after the first letter is one; and
 * `NAME=value` (`ssh -o ProxyCommand=rm x`, `-oProxyCommand=…`) gives its value.
 */
function carriedValues(word: string): string[] {
  const values: string[] = [];
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    if (eq > 2) values.push(word.slice(eq + 1));
  } else if (/^-[^-\s]/.test(word)) {
    for (let k = 2; k < word.length; k++) values.push(word.slice(k));
  }
  for (const v of [word, ...values]) {
    const setting = /^[A-Za-z_][\w.-]*=([\s\S]*)$/.exec(v);
    if (setting) values.push(setting[1]!);
  }
  return [...new Set(values)];
}

/**
 * Every command a simple command may run: itself (`/bin/rm` as `rm`); for a wrapper (`sudo`,
 * `env`, `timeout`, `xargs`…) each later word as a possible command name, since options differ
 * by wrapper; the scripts given to shells (`bash -c "…"`), `eval` and `find -exec`.
 */
export function resolveCommand(command: SimpleCommand, inner: InnerScript, inputs: (string | undefined)[] = []): Resolution {
  const out: Resolution = { runs: [], unseen: [], shellReadsInput: false, opaque: [], mentions: new Set(), readsFrom: [], writesTo: [], assigned: [] };
  const opaqueSeen = new Set<string>();
  const seen = new Set<string>();
  const add = (words: Words, text: string, written?: string) => {
    const key = JSON.stringify([written, words]);
    if (seen.has(key)) return;
    seen.add(key);
    out.runs.push({ words, text, ...(written !== undefined && written !== words[0] ? { written } : {}) });
  };
  const script = (s: string) => {
    const found = inner(s);
    if (!found) {
      out.unseen.push(`a script that does not parse cleanly: ${clip(s)}`);
      return;
    }
    for (const r of found.runs) add(r.words, r.text, r.written);
    out.unseen.push(...found.unseen);
    out.opaque.push(...found.opaque);
    for (const m of found.mentions) out.mentions.add(m);
    out.readsFrom.push(...(found.readsFrom ?? []));
    out.writesTo.push(...(found.writesTo ?? []));
    out.assigned.push(...(found.assigned ?? []));
  };

  // One possible command: the words from its name on (`shapes` describes its computed words).
  // Wrappers are scanned by `visit` only.
  const visitOne = (words: Words, hops: number, shapes: readonly (Shape | undefined)[] | undefined) => {
    const name = words[0];
    if (name === undefined) {
      out.unseen.push(`a command name computed when it runs: ${clip(command.text)}`);
      return;
    }
    const base = commandBase(name);
    const args = words.slice(1);
    add([base, ...args], command.text, name);
    if (!isKnownProgram(base)) {
      const key = JSON.stringify(words);
      if (!opaqueSeen.has(key)) {
        opaqueSeen.add(key);
        out.opaque.push({ words: [base, ...args], text: command.text, ...(shapes ? { shapes } : {}), inputs });
      }
    }
    if (SHELLS.has(base)) {
      let scripted = false;
      for (const a of args) {
        if (a === undefined) out.unseen.push(`a computed argument to ${base}: ${clip(command.text)}`);
        else if (/^[-+][A-Za-z]*s/.test(a) && !a.startsWith('--')) out.shellReadsInput = true;
        else if (isDescriptorPath(a)) {
          // `bash /dev/stdin`, `sh /proc/self/fd/0`: the script is its input.
          out.shellReadsInput = true;
          scripted = true;
        } else if (!/^[-+]/.test(a)) {
          // The -c script, or a script file's name (which then parses as one harmless command).
          script(a);
          scripted = true;
        }
      }
      if (!scripted) out.shellReadsInput = true;
    } else if (base === 'eval') {
      if (args.some((a) => a === undefined)) out.unseen.push(`eval of a computed string: ${clip(command.text)}`);
      else script(args.join(' '));
    } else if (base === 'find') {
      for (let i = 0; i < args.length; i++) {
        if (args[i] === undefined || !FIND_EXEC.has(args[i]!)) continue;
        let end = i + 1;
        while (end < args.length && args[end] !== ';' && args[end] !== '+') end++;
        visit(args.slice(i + 1, end), hops + 1, shapes?.slice(i + 2, end + 1));
        i = end;
      }
    } else if (base === 'trap') {
      // trap 'cmd' EXIT runs its first argument as a script.
      const at = args.findIndex((a) => a === undefined || !a.startsWith('-'));
      const action = args[at];
      if (at >= 0 && action === undefined) out.unseen.push(`trap of a computed string: ${clip(command.text)}`);
      else if (action !== undefined) script(action);
    } else if ((base === 'source' || base === '.') && args.some((a) => a === undefined)) {
      out.unseen.push(`${base} of a computed file name: ${clip(command.text)}`);
    } else if (sourcesInput([base, ...args])) {
      out.shellReadsInput = true;
    }
  };

  const visit = (words: Words, hops: number, shapes: readonly (Shape | undefined)[] | undefined) => {
    if (hops > MAX_HOPS) {
      out.unseen.push(`commands nested too deeply: ${clip(command.text)}`);
      return;
    }
    visitOne(words, hops, shapes);
    const name = words[0];
    if (name === undefined || !WRAPPERS.has(commandBase(name))) return;
    if (words.length > MAX_WRAPPED_WORDS) {
      out.unseen.push(`too many words after ${commandBase(name)} to find the command it runs`);
      return;
    }
    for (let i = 1; i < words.length; i++) {
      const w = words[i];
      if (w === undefined) {
        out.unseen.push(`a word computed when it runs, after ${commandBase(name)}: ${clip(command.text)}`);
        continue;
      }
      if (w.startsWith('-') && w.length > MAX_GLUED_OPTION) {
        out.unseen.push(`an option too long to search for a glued command, after ${commandBase(name)}: ${clip(command.text)}`);
        continue;
      }
      if (w.includes('\\')) {
        // bash has removed its own escapes: a backslash left is for the wrapper (`env -S 'rm\_x'` splits at \_).
        out.unseen.push(`a backslash the wrapper may read itself, after ${commandBase(name)}: ${clip(command.text)}`);
      }
      // `watch 'rm x'`, `su -c 'rm x'`, `env -S 'rm x'`: a word with spaces may be a script.
      if (/\s/.test(w)) script(w);
      visitOne(words.slice(i), hops + 1, shapes?.slice(i));
      for (const value of carriedValues(w)) {
        if (/\s/.test(value)) script(value);
        visitOne([value, ...words.slice(i + 1)], hops + 1, shapes && [undefined, ...shapes.slice(i + 1)]);
      }
    }
  };

  visit(command.words, 0, command.shapes);
  return out;
}
