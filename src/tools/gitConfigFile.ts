// A git config file read the way git's own parser reads it (config.c), without running git: the
// folder may be untrusted, and git is started only by the snapshot. The guard needs every name a
// repository's config sets, the files it includes and where it says the work tree is. A reader
// that decodes one escape differently from git hides a setting from the guard while git still
// obeys it (an include path spelled `"evil\tcfg"`, or one continued over a backslash-newline), so
// this follows git character by character, and its tests compare it with git itself.
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { isInside, realPathOf } from '../fs/paths';
import { readRegularFile } from '../fs/read';
import { gitPathTargets } from './gitPath';

export interface ConfigEntry {
  /** `section.subsection.key` as git lists it: section and key lowercased, the quoted subsection as written. */
  name: string;
  /** The decoded value; undefined for a key given without `=` (a boolean true). */
  value: string | undefined;
  /** The value as older git reads it, where that differs (see `value`). */
  older?: string;
}

export interface ParsedConfig {
  entries: ConfigEntry[];
  /** Git stops at the first line it cannot parse (and then refuses to run); what came before is kept. */
  error: boolean;
}

// Git's own ctype: \v and \f are not whitespace to it.
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isAlpha = (c: string) => /^[A-Za-z]$/.test(c);
const isKeyChar = (c: string) => /^[A-Za-z0-9-]$/.test(c);

class Source {
  private i = 0;
  eof = false;
  constructor(private readonly text: string) {
    // A UTF-8 byte order mark at the start is skipped, as git does.
    if (text.startsWith('\uFEFF')) this.i = 1;
  }
  /** The next character; a CR before LF is dropped, and the end reads as a newline. */
  next(): string {
    if (this.i >= this.text.length) {
      this.eof = true;
      return '\n';
    }
    let c = this.text[this.i++]!;
    if (c === '\r' && this.text[this.i] === '\n') c = this.text[this.i++]!;
    return c;
  }
}

/** `[section]`, `[section "sub"]` or the old `[section.sub]`; undefined on a header git rejects. */
function sectionHeader(src: Source): string | undefined {
  let base = '';
  for (;;) {
    const c = src.next();
    if (src.eof) return undefined;
    if (c === ']') return base;
    if (isSpace(c)) return extendedHeader(src, base);
    if (!isKeyChar(c) && c !== '.') return undefined;
    base += c.toLowerCase();
  }
}

function extendedHeader(src: Source, base: string): string | undefined {
  let c = ' ';
  do {
    if (c === '\n') return undefined;
    c = src.next();
  } while (isSpace(c));
  if (c !== '"') return undefined;
  let sub = '';
  for (;;) {
    c = src.next();
    if (src.eof || c === '\n') return undefined;
    if (c === '"') break;
    if (c === '\\') {
      c = src.next();
      if (src.eof || c === '\n') return undefined;
    }
    sub += c;
  }
  return src.next() === ']' ? `${base}.${sub}` : undefined;
}

/**
 * A value up to its line's end: quotes, comments, escapes and continuations as git reads them.
 * Whitespace outside quotes inside a value is kept as written by newer git and read as one space
 * per character by older git (2.39 here): both spellings are returned, since a path may be either.
 */
function value(src: Source): { value: string; older: string } | undefined {
  let out = '';
  let older = '';
  let spaces = 0;
  let quote = false;
  let comment = false;
  let trimAt = -1;
  const add = (c: string) => {
    out += c;
    older += ' '.repeat(spaces) + c;
    spaces = 0;
  };
  for (;;) {
    let c = src.next();
    if (c === '\n') {
      if (quote) return undefined;
      return { value: trimAt >= 0 ? out.slice(0, trimAt) : out, older };
    }
    if (comment) continue;
    if (isSpace(c) && !quote) {
      if (trimAt < 0) trimAt = out.length;
      if (out.length) out += c;
      if (older.length) spaces++;
      continue;
    }
    if (!quote && (c === ';' || c === '#')) {
      comment = true;
      continue;
    }
    trimAt = -1;
    if (c === '\\') {
      // Older git writes the pending spaces before anything that is not whitespace, a continuation too.
      older += ' '.repeat(spaces);
      spaces = 0;
      c = src.next();
      // A backslash at a line's end continues the value on the next line (at the file's end, ends it).
      if (c === '\n') continue;
      if (c === 't') c = '\t';
      else if (c === 'b') c = '\b';
      else if (c === 'n') c = '\n';
      else if (c !== '\\' && c !== '"') return undefined;
      add(c);
      continue;
    }
    if (c === '"') {
      quote = !quote;
      // Older git writes the pending spaces before anything that is not whitespace.
      older += ' '.repeat(spaces);
      spaces = 0;
      continue;
    }
    add(c);
  }
}

/** Every entry of a config text, in order. */
export function parseGitConfig(text: string): ParsedConfig {
  const src = new Source(text);
  const entries: ConfigEntry[] = [];
  let section: string | undefined;
  let comment = false;
  for (;;) {
    let c = src.next();
    if (c === '\n') {
      if (src.eof) return { entries, error: false };
      comment = false;
      continue;
    }
    if (comment || isSpace(c)) continue;
    if (c === '#' || c === ';') {
      comment = true;
      continue;
    }
    if (c === '[') {
      section = sectionHeader(src);
      if (!section) return { entries, error: true };
      continue;
    }
    if (!isAlpha(c)) return { entries, error: true };
    let key = c.toLowerCase();
    for (;;) {
      c = src.next();
      if (src.eof || !isKeyChar(c)) break;
      key += c.toLowerCase();
    }
    while (c === ' ' || c === '\t') c = src.next();
    // A key before any section is listed by git under its bare name.
    const name = section === undefined ? key : `${section}.${key}`;
    if (c === '\n') {
      entries.push({ name, value: undefined });
      if (src.eof) return { entries, error: false };
      continue;
    }
    if (c !== '=') return { entries, error: true };
    const v = value(src);
    if (v === undefined) return { entries, error: true };
    entries.push(v.older === v.value ? { name, value: v.value } : { name, value: v.value, older: v.older });
    if (src.eof) return { entries, error: false };
  }
}

const isInclude = (name: string) => /^include(?:if\..*)?\.path$/.test(name);
const spellings = (e: ConfigEntry): string[] => (e.value === undefined ? [] : e.older !== undefined ? [e.value, e.older] : [e.value]);

/** The names a config text sets and the include paths it names (any condition: which one holds can change). */
export function configNames(text: string): { names: string[]; includes: string[] } {
  const { entries } = parseGitConfig(text);
  return {
    names: entries.map((e) => e.name),
    includes: entries.filter((e) => e.value && isInclude(e.name)).flatMap(spellings),
  };
}

const CONFIG_MAX_BYTES = 1024 * 1024;
/** Git's own limit on nested includes. */
const INCLUDE_DEPTH = 10;
/** Config files read for one repository, includes counted: past this the reading stops and says so. */
const MAX_FILES = 64;

/** An entry and the file it was read from (a relative core.worktree is read against the git folder, not the file). */
export interface FileEntry extends ConfigEntry {
  file: string;
}

/** What a repository's config files say, and what could not be read the way git reads it. */
export interface ConfigRead {
  entries: FileEntry[];
  /** Why the entries may not be all git obeys: a file too big, an include path not followed, too many files. */
  problems: string[];
  /** Real paths already read (an include loop, or links leading to one file by many paths). */
  seen: Set<string>;
  /**
   * Folders an include may lead into (the workspace, the repository's git folders). An include
   * leading anywhere else, or to a file whose place is not known exactly, is not read: it is
   * named in `outside` by the path the including file writes, never by anything the target holds
   * (a refusal naming the keys of `~/.pypirc` tells what is in it). Undefined: any folder.
   */
  roots?: readonly string[];
  /** Includes not followed because they lead outside `roots`, worded to follow "the repository at X". */
  outside: string[];
  /**
   * Config bytes still to be read, shared by every read of one look: many git folders sharing one
   * config with big includes were that config parsed once per folder, minutes per command (pass 48 F1).
   */
  budget?: { bytes: number };
}

/** Config text one look through the reachable repositories reads, all files together; past it the look stops and says so. */
export const CONFIG_BYTES_PER_LOOK = 8 * 1024 * 1024;

export const newConfigRead = (roots?: readonly string[], budget?: { bytes: number }): ConfigRead => ({ entries: [], problems: [], seen: new Set(), outside: [], ...(roots ? { roots } : {}), ...(budget ? { budget } : {}) });

/** Follows one include path named in `from`: reads its target when it is known and allowed, else says why not. */
async function followInclude(from: string, path: string, into: ConfigRead, depth: number): Promise<void> {
  // Git opens the bytes as written, up to a NUL: such a name cannot be followed here.
  if (path.includes('\0')) {
    into.problems.push(`${from} includes a file by a name that cannot be followed`);
    return;
  }
  for (const target of gitPathTargets(path, dirname(from), homedir())) {
    if ('unknown' in target) {
      into.problems.push(`${from} includes ${path}, a file Threadline cannot place exactly as git does (${target.unknown})`);
      continue;
    }
    if (into.roots && !into.roots.some((root) => isInside(root, target.path))) {
      into.outside.push(`includes ${path} (in ${from}), a file outside the workspace`);
      continue;
    }
    await readConfigFile(target.path, into, depth + 1);
  }
}

/** The entries of a config file and of everything it includes, in the order git reads them, added to `into`. */
export async function readConfigFile(file: string, into: ConfigRead, depth = 0): Promise<ConfigRead> {
  if (depth > INCLUDE_DEPTH) return into;
  const real = await realPathOf(file);
  // A file git cannot open is skipped by git too (a missing include is not an error). One file
  // named by two paths includes different files (relative includes resolve from the name it was
  // opened by), so it is read once per folder it was named from.
  if (real === undefined) return into;
  const key = `${real}\0${dirname(file)}`;
  if (into.seen.has(key)) return into;
  if (into.seen.size >= MAX_FILES) {
    into.problems.push(`more than ${MAX_FILES} config files are included`);
    return into;
  }
  into.seen.add(key);
  const read = await readRegularFile(real, CONFIG_MAX_BYTES);
  if (!read.ok) {
    if (read.reason !== 'missing') into.problems.push(`${file} could not be read whole (${read.reason})`);
    return into;
  }
  if (into.budget && (into.budget.bytes -= read.bytes.length) < 0) {
    into.problems.push(`the configs of the repositories here hold more than ${CONFIG_BYTES_PER_LOOK / 1024 / 1024} MB in all (with includes, counted once per repository), too much to read before each command`);
    return into;
  }
  const text = read.bytes.toString('utf8');
  // Git compares names as bytes; a name that is not UTF-8 cannot be named back to it (an override
  // for `filter.e\uFFFD` switches off some other driver).
  if (text.includes('\uFFFD')) into.problems.push(`${file} holds bytes that are not UTF-8`);
  for (const e of parseGitConfig(text).entries) {
    into.entries.push({ ...e, file });
    if (!isInclude(e.name)) continue;
    for (const path of spellings(e)) if (path) await followInclude(file, path, into, depth);
  }
  return into;
}
