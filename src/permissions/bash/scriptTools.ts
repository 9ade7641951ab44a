import { asOptionWord, spellsOption, type SimpleCommand } from './commands';
import { jqDanger, JQS, yqDanger } from './jqProgram';
import { sqliteDanger } from './sqlProgram';

// sed, awk and jq are languages: their script, not their options, decides whether they run
// another program (`sed 1e`, `s///e`, awk's system() and pipes), read a file the command never
// names (`sed r`, awk's getline <, ARGV, jq's import and include) or write one (`sed w`, `print
// >`). A rule naming them lets a script run only when it can be read through and is plainly none
// of those; anything not understood asks.

const AWKS: ReadonlySet<string> = new Set(['awk', 'gawk', 'mawk', 'nawk']);

/** awk words that run, read or write beyond the files it is given, or read the environment. */
const AWK_FORBIDDEN = /system|getline|close|fflush|ENVIRON|ARGV|ARGC|PROCINFO|[|@]/;

/** sed commands that take no argument (besides an optional number for l, q, Q, L). */
const SED_SIMPLE = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'l', 'n', 'N', 'p', 'P', 'q', 'Q', 'x', 'z', 'F', 'L']);

/** Why a sed script may run, read or write something; undefined when it surely does none. */
export function sedScriptDanger(script: string): string | undefined {
  let i = 0;
  const at = () => script[i];
  const blanks = () => {
    while (at() === ' ' || at() === '\t') i++;
  };
  const spaces = () => {
    while (at() !== undefined && /[\s;]/.test(at()!)) i++;
  };
  /** Skips to the unescaped `delim`; false when the script ends first. */
  const upTo = (delim: string): boolean => {
    while (i < script.length) {
      const c = script[i++];
      if (c === '\\') i++;
      else if (c === delim) return true;
    }
    return false;
  };
  const address = (): boolean => {
    const c = at();
    if (c === undefined) return true;
    if (/\d/.test(c)) {
      while (/[\d~]/.test(at() ?? '')) i++;
    } else if (c === '$') i++;
    else if (c === '/' || c === '\\') {
      if (c === '\\') i++;
      const d = script[i++];
      if (d === undefined || d === '\n' || d === '\\' || !upTo(d)) return false;
      while (at() === 'I' || at() === 'M') i++;
    }
    return true;
  };
  /** After a command: blanks, then its end. */
  const end = (): boolean => {
    blanks();
    const c = at();
    return c === undefined || c === ';' || c === '\n' || c === '}' || c === '#';
  };
  const unclear = (what: string) => `the sed script ${JSON.stringify(script.slice(0, 60))} has ${what}, which a rule naming sed does not cover`;
  for (;;) {
    spaces();
    if (at() === undefined) return undefined;
    if (at() === '#') {
      while (at() !== undefined && at() !== '\n') i++;
      continue;
    }
    if (!address()) return unclear('an address that could not be read');
    blanks();
    if (at() === ',') {
      i++;
      blanks();
      if (at() === '+' || at() === '~') i++;
      if (!address()) return unclear('an address that could not be read');
    }
    blanks();
    while (at() === '!') {
      i++;
      blanks();
    }
    const cmd = script[i++];
    if (cmd === undefined) return unclear('an address with no command');
    if (cmd === '{' || cmd === '}') continue;
    if (cmd === 'e' || cmd === 'r' || cmd === 'R' || cmd === 'w' || cmd === 'W') {
      return `the sed command ${cmd} ${cmd === 'e' ? 'runs a program' : cmd === 'w' || cmd === 'W' ? 'writes a file the command does not name' : 'reads a file the command does not name'}, which a rule naming sed does not cover`;
    }
    if (SED_SIMPLE.has(cmd)) {
      blanks();
      while (/\d/.test(at() ?? '')) i++;
      if (!end()) return unclear(`text after ${cmd}`);
    } else if (cmd === ':' || cmd === 'b' || cmd === 't' || cmd === 'T') {
      blanks();
      while (/[A-Za-z0-9_.-]/.test(at() ?? '')) i++;
      if (!end()) return unclear('a label it could not read');
    } else if (cmd === 'a' || cmd === 'i' || cmd === 'c') {
      // Text to add: to the end of the line (`a\` puts it on the next). A line ending in a
      // backslash would carry the text on, where sed and this reading may part.
      blanks();
      if (at() === '\\' && script[i + 1] === '\n') i += 2;
      while (at() !== undefined && at() !== '\n') {
        if (at() === '\\' && (script[i + 1] === '\n' || script[i + 1] === undefined)) return unclear('text carried over several lines');
        i += at() === '\\' ? 2 : 1;
      }
    } else if (cmd === 'v') {
      blanks();
      while (/[\d.]/.test(at() ?? '')) i++;
      if (!end()) return unclear('text after v');
    } else if (cmd === 's' || cmd === 'y') {
      const d = script[i++];
      if (d === undefined || d === '\n' || d === '\\' || !upTo(d) || !upTo(d)) return unclear(`an ${cmd} command it could not read`);
      if (cmd === 's') {
        while (at() !== undefined && /[gpiImM\d]/.test(at()!)) i++;
        if (at() === 'e' || at() === 'w') return `the s flag ${at()} ${at() === 'e' ? 'runs a program' : 'writes a file'}, which a rule naming sed does not cover`;
      }
      if (!end()) return unclear(`text after an ${cmd} command`);
    } else {
      return unclear(`the command ${JSON.stringify(cmd)}`);
    }
  }
}

/** Why a sed command's options or scripts may do more than filter text; undefined when not. */
function sedDanger(c: SimpleCommand, trusted: number): string | undefined {
  const scripts: Array<{ text: string; at: number }> = [];
  let sandbox = false;
  let given = false;
  let options = true;
  let operand: number | undefined;
  for (let i = 1; i < c.words.length; i++) {
    const w = c.words[i];
    if (w === undefined) return 'sed is given a word computed when it runs, which may be a script';
    if (!options || w === '-' || !w.startsWith('-')) {
      operand ??= i;
      continue;
    }
    if (w === '--') {
      options = false;
      continue;
    }
    if (w.startsWith('--')) {
      const [name, value] = [w.slice(2).split('=')[0]!, w.includes('=') ? w.slice(w.indexOf('=') + 1) : undefined];
      if (name === 'sandbox') sandbox = true;
      else if (name === 'expression') {
        const text = value ?? c.words[++i];
        if (text === undefined) return 'sed is given a script computed when it runs';
        scripts.push({ text, at: i });
        given = true;
      } else if (name === 'file') return 'sed -f reads its script from a file, which a rule naming sed does not cover';
      else if (name === 'in-place') {
        if (value?.includes('/')) return 'sed --in-place with a backup name holding a / writes the backup into another folder';
      } else if (name === 'line-length') {
        if (value === undefined) i++;
      } else if (!['quiet', 'silent', 'regexp-extended', 'separate', 'unbuffered', 'null-data', 'zero-terminated', 'posix', 'debug', 'follow-symlinks', 'binary', 'help', 'version'].includes(name)) {
        return `${w} is not a sed option known to only shape its output`;
      }
      continue;
    }
    // A bundle of short options: -n, -ne 'script', -e1p, -i.bak, -l 80.
    for (let k = 1; k < w.length; k++) {
      const f = w[k]!;
      if ('nrEsuzb'.includes(f)) continue;
      const rest = w.slice(k + 1);
      if (f === 'i') {
        if (rest.includes('/')) return 'sed -i with a backup name holding a / writes the backup into another folder';
        break;
      }
      if (f === 'e' || f === 'l') {
        const text = rest || c.words[++i];
        if (text === undefined) return `sed ${f === 'e' ? 'is given a script' : 'is given a line length'} computed when it runs`;
        if (f === 'e') {
          scripts.push({ text, at: i });
          given = true;
        }
        break;
      }
      if (f === 'f') return 'sed -f reads its script from a file, which a rule naming sed does not cover';
      return `-${f} is not a sed option known to only shape its output`;
    }
  }
  // Without -e, the first operand is the script.
  if (!given && operand !== undefined) scripts.push({ text: c.words[operand]!, at: operand });
  // GNU sed refuses e, r and w in sandbox mode.
  if (sandbox) return undefined;
  for (const s of scripts) {
    if (s.at < trusted) continue;
    const why = sedScriptDanger(s.text);
    if (why) return why;
  }
  return undefined;
}

/** Why an awk command's program may do more than filter text; undefined when it plainly does not. */
function awkDanger(c: SimpleCommand, trusted: number): string | undefined {
  const name = c.words[0]!;
  const programs: Array<{ text: string; at: number }> = [];
  let given = false;
  let options = true;
  for (let i = 1; i < c.words.length; i++) {
    const w = c.words[i];
    if (w === undefined) return `${name} is given a word computed when it runs, which may be its program`;
    if (!options || w === '-' || !w.startsWith('-')) {
      if (!given) {
        programs.push({ text: w, at: i });
        given = true;
      }
      // The rest are files and var=value assignments; the file checks look at them.
      options = false;
      continue;
    }
    if (w === '--') {
      options = false;
      continue;
    }
    const long = w.startsWith('--') ? w.slice(2).split('=')[0]! : undefined;
    const glued = long !== undefined ? (w.includes('=') ? w.slice(w.indexOf('=') + 1) : undefined) : w.length > 2 ? w.slice(2) : undefined;
    const flag = long ?? w[1]!;
    if (['F', 'field-separator', 'v', 'assign'].includes(flag)) {
      if (glued === undefined) i++;
    } else if (['e', 'source'].includes(flag)) {
      const text = glued ?? c.words[++i];
      if (text === undefined) return `${name} is given a program computed when it runs`;
      programs.push({ text, at: i });
      given = true;
    } else if (['S', 'sandbox', 'posix', 'P', 'traditional', 'c', 'r', 're-interval', 'N', 'use-lc-numeric', 'b', 'characters-as-bytes'].includes(flag) && glued === undefined) {
      // Only change how text is read or matched.
    } else if (['f', 'file', 'E', 'exec', 'i', 'include', 'l', 'load'].includes(flag)) {
      return `${w} makes ${name} run a program from a file, which a rule naming ${name} does not cover`;
    } else {
      return `${w} is not an option of ${name} known to only shape its output`;
    }
  }
  for (const p of programs) {
    if (p.at < trusted) continue;
    const hit = AWK_FORBIDDEN.exec(p.text)?.[0];
    if (hit) return `the ${name} program uses ${hit}, by which it may run a program, read a file it is not given or read the environment; a rule naming ${name} does not cover that`;
    // `>` in a program that prints may send the output to a file or a program.
    if (/\bprintf?\b/.test(p.text) && p.text.includes('>')) return `the ${name} program may print into a file (>), which a rule naming ${name} does not cover`;
  }
  return undefined;
}

/**
 * Why the script a rule-allowed sed, awk, jq or yq command is given may run a program, or read or write a
 * file the command does not name; undefined for other programs and for plain text filters.
 * `trusted`: how many leading words the rule itself spells (a script spelled there is the user's choice).
 */
export function scriptDanger(name: string, c: SimpleCommand, trusted: number): string | undefined {
  if (name === 'sed') return sedDanger(c, trusted);
  if (AWKS.has(name)) return awkDanger(c, trusted);
  if (JQS.has(name)) return jqDanger(c, trusted);
  if (name === 'yq') return yqDanger(c, trusted);
  if (name === 'sqlite3') return sqliteDanger(c, trusted);
  return undefined;
}

/** Programs that render roff, whose `.so` line reads any file into the page. */
const ROFF: ReadonlySet<string> = new Set(['groff', 'nroff', 'troff', 'mandoc', 'soelim', 'grog']);

/**
 * A page file given to man (`man ./x.1`, `man -l x.1`) or a file given to a roff program: its
 * `.so` lines read any file (`.so /home/u/.ssh/id_rsa`), and no check reads them. A page by name
 * (`man ls`) is the system's.
 */
export function roffFile(program: string, c: SimpleCommand): string | undefined {
  const words = c.words.slice(1);
  if (program === 'man') {
    const local = words.find((w, i) => w === undefined || (w.startsWith('-') ? ['-l', '--local-file'].some((o) => spellsOption(asOptionWord(program, i + 1, w), o)) : w.includes('/')));
    return local === undefined && !words.includes(undefined) ? undefined : 'man is given a page file, whose .so lines read any file into the page';
  }
  if (ROFF.has(program) && words.some((w) => w === undefined || !w.startsWith('-'))) return `${program} is given a file, whose .so lines read any file into its output`;
  return undefined;
}
