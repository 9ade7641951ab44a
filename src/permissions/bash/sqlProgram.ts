import type { SimpleCommand } from './commands';

// sqlite3 runs a language too (see scriptTools.ts): its dot-commands run programs (`.shell`,
// `.system`), read and write any file (`.read`, `.output`, `.import`, `.open`, `.backup`), and
// the shell's SQL functions do the same (`readfile`, `writefile`, `edit`, the `fsdir` table,
// `load_extension`), as do `ATTACH` and `VACUUM INTO`. `-safe` does not close all of it: in
// sqlite 3.40, `select data from fsdir('/home/u/.ssh/id_rsa')` still reads the file. So a rule
// naming sqlite3 lets its SQL run only when it is read through and plainly reaches no file but
// the database the command names, with only the dot-commands that show the database or the output's shape.

/** sqlite3's options that only shape its output or how it opens the database it is given. */
const FLAGS: ReadonlySet<string> = new Set([
  'ascii', 'box', 'column', 'csv', 'header', 'noheader', 'html', 'json', 'line', 'list', 'markdown', 'quote', 'table', 'tabs',
  'bail', 'batch', 'echo', 'readonly', 'safe', 'stats', 'version', 'help', 'nofollow', 'no-rowid-in-view',
]);
const VALUED: ReadonlySet<string> = new Set(['separator', 'newline', 'nullvalue', 'mmap', 'maxsize']);

/** Dot-commands that only show the database or set how output looks (the first word after the dot). */
const DOT_COMMANDS: ReadonlySet<string> = new Set([
  'tables', 'schema', 'fullschema', 'indexes', 'indices', 'databases', 'dbinfo', 'dump', 'headers', 'header', 'mode', 'width',
  'nullvalue', 'separator', 'show', 'timer', 'changes', 'eqp', 'echo', 'bail', 'stats', 'help', 'print', 'quit', 'exit', 'lint',
]);

/**
 * Words of SQL (identifiers, quoted or not, and string literals, as SQLite takes a string where a
 * name is wanted) that reach files, load code or write outside the database: the shell's file
 * functions and tables, extension loading, a tokenizer pointer, and the statements that open
 * another database file. Comments split words, as they do for SQLite.
 */
const SQL_FORBIDDEN: ReadonlySet<string> = new Set([
  'readfile', 'writefile', 'edit', 'fsdir', 'lsmode', 'load_extension', 'zipfile', 'zipfile_cds', 'sqlar_compress', 'sqlar_uncompress',
  'fts3_tokenizer', 'attach', 'vacuum', 'pragma', 'virtual', 'sqlite_dbpage', 'sqlite_dbdata', 'sqlite_dbptr',
]);

/** The words of SQL text, dequoted and lower-cased; undefined when a quote or comment never ends. */
export function sqlWords(sql: string): string[] | undefined {
  const words: string[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', i)) {
      // SQLite lets a block comment run to the end of the text.
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let text = '';
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) return undefined;
        if (sql[j] === close) {
          // A doubled quote is the quote itself (not inside brackets).
          if (close !== ']' && sql[j + 1] === close) {
            text += close;
            j += 2;
            continue;
          }
          break;
        }
        text += sql[j++];
      }
      words.push(text.toLowerCase());
      i = j + 1;
    } else if (/[\p{L}\p{N}_$]/u.test(c)) {
      let j = i;
      while (j < sql.length && /[\p{L}\p{N}_$]/u.test(sql[j]!)) j++;
      words.push(sql.slice(i, j).toLowerCase());
      i = j;
    } else i++;
  }
  return words;
}

/** Why one sqlite3 argument (a dot-command or SQL) may reach beyond the database; undefined when it plainly does not. */
export function sqliteTextDanger(text: string): string | undefined {
  const line = text.trimStart();
  if (line.startsWith('.')) {
    const name = /^\.(\w*)/.exec(line)![1]!.toLowerCase();
    // The shell takes a dot-command's whole argument as one line, a newline inside it too.
    if (!DOT_COMMANDS.has(name) || /[\n\r]/.test(line)) return `sqlite3's .${name} is not a dot-command known only to show the database`;
    return undefined;
  }
  const words = sqlWords(text);
  if (!words) return 'the SQL given to sqlite3 has a quote or name that never ends, so it cannot be read through';
  const hit = words.find((w) => SQL_FORBIDDEN.has(w) || w.startsWith('sqlar_') || w.startsWith('zipfile'));
  if (hit) return `the SQL given to sqlite3 uses ${hit}, which reaches files, loads code or writes outside the database`;
  return undefined;
}

/** Why a sqlite3 command may run, read or write beyond the database it names; undefined when it plainly does not. */
export function sqliteDanger(c: SimpleCommand, trusted: number): string | undefined {
  let database = false;
  for (let i = 1; i < c.words.length; i++) {
    const w = c.words[i];
    if (w === undefined) return 'sqlite3 is given a word computed when it runs, which may be SQL';
    // sqlite3 takes a word with a dash as an option wherever it stands, after the database too.
    if (w.startsWith('-')) {
      const name = w.replace(/^--?/, '');
      if (FLAGS.has(name)) continue;
      if (VALUED.has(name)) {
        i++;
        continue;
      }
      return `${w} is not an option of sqlite3 known only to shape its output (-cmd and -init run dot-commands, -A and -zip write files)`;
    }
    if (!database) {
      database = true;
      // URI names choose the file and the VFS by parameters the path checks do not read.
      if (/^file:/i.test(w)) return 'sqlite3 is given a file: URI, whose parameters choose the file and how it is opened';
      continue;
    }
    if (i < trusted) continue;
    const why = sqliteTextDanger(w);
    if (why) return why;
  }
  return undefined;
}
