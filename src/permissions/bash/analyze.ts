// Why this file is long: it is one walk over tree-sitter-bash's node types, and each kind of node
// (commands, redirections, here-docs, pipelines, assignments) adds to the same record of what the
// script runs and hands on; split, each part would need the others' state.
import type { Node } from 'web-tree-sitter';
import { divergences } from './divergence';
import { commandBase, EVALUATING_BUILTINS, SHELLS, invokesShell, isInertValue, isInertVariable, runsScriptFile, writesNoFile, writesVerbatim, type Opaque, type SimpleCommand } from './commands';
import { knowsWrites, pathArgs } from './pathArgs';
import { resolveCommand, type Found, type InnerScript } from './resolve';
import { clip, gluedContinuation, hasControl, HAZARDS, isPlainExpansion, OUTPUT_OK, OUTPUT_OPS, PARSE_ERROR, STRUCTURE, WORDISH } from './syntax';
import { literalOf, normalForm, shapeOf, wordOf, type Shape } from './words';

/** What a permission check needs to know about one Bash command, copied out of the parse tree. */
export interface BashAnalysis {
  /** One spelling per meaning (quotes and spaces normalised): what a session grant compares. */
  normalized: string;
  /** Every simple command as written, anywhere in the script, in order. */
  commands: readonly SimpleCommand[];
  /**
   * Why no allow rule for its commands can cover this script (a substitution, a redirection to
   * a file, a background job…). Empty: the rules decide, command by command.
   */
  hazards: readonly string[];
  /** What the script may run, wrappers and inner scripts resolved: what deny and ask rules see. */
  runs: readonly SimpleCommand[];
  /** Why a deny rule cannot be sure it sees everything that runs. */
  unseen: readonly string[];
  /** Programs not known to be inert, and what they are handed: a deny rule asks when they are handed its program. */
  opaque: readonly Opaque[];
  /** Every name the script spells other than as `$name` or `${name}` (it may set those variables). */
  mentions: ReadonlySet<string>;
  /** Files read by `< file` (undefined text where computed). */
  readsFrom: readonly { text: string | undefined; shape?: Shape }[];
  /** Files written by `> file`, `>> file`, `&> file`, `>& file`, `<> file` (undefined text where computed). */
  writesTo: readonly { text: string | undefined; shape?: Shape }[];
  /** The values the script assigns, as written (`HISTFILE=~/.ssh/id_rsa`): a program may open what one names. */
  assigned: readonly { name: string; value: string }[];
  /** Where the grammar's tree may not be what bash reads (a parse error, a known divergence): its words are not the command's. */
  misread: readonly string[];
  /**
   * The script may change how bash expands globs (shopt: extglob, dotglob, nocaseglob…;
   * GLOBIGNORE, which also turns dotglob on; bash -O; a locale): its globs are then not what bash expands
   * with the defaults. Says how; undefined when it does not.
   */
  globOptions: string | undefined;
}

// A locale set by the script changes what `?` and ranges match (`??` is the two bytes of `é` in C).
const GLOB_OPTIONS = /\bshopt\b|\bGLOBIGNORE\b|\bBASHOPTS\b|(?:^|\s)[-+]O(?:\s|$)|\b(?:LC_[A-Z]+|LANG|LANGUAGE)\+?=/;

/** `set` options that change which words a command gets: f (noglob), B (braces), k (keyword). */
const SET_LETTERS = /^[-+][A-Za-z]*[fBk]/;
const SET_NAMES: ReadonlySet<string> = new Set(['noglob', 'braceexpand', 'keyword']);
/** What `globOptions` says for `set -k`, which changes every command's arguments, globs or not. */
export const KEYWORD_SET = 'set -k';

function globOptionsOf(source: string, commands: readonly SimpleCommand[]): string | undefined {
  const run = globOptionsRun(commands);
  return run === KEYWORD_SET ? run : (GLOB_OPTIONS.exec(source)?.[0].trim() ?? run);
}

/**
 * The same read from the commands as bash will run them (quotes removed: `sho''pt` is shopt),
 * for what the text alone does not show.
 */
function globOptionsRun(commands: readonly SimpleCommand[]): string | undefined {
  let found: string | undefined;
  for (const c of commands) {
    const [first, ...rest] = c.words;
    const name = first === undefined ? undefined : commandBase(first);
    if (name !== 'set' && name !== 'shopt') continue;
    // -k (keyword) takes every `a=b` word out of a command's arguments, wherever it stands. It is
    // named by letter (`-k`, in any bundle), or by name after an `o` anywhere in a bundle (`set
    // -eo keyword`, `shopt -os keyword`, pass 50 C2): any word `keyword`, or one computed when it
    // runs, is taken as turning it on, whichever option came before it.
    if (rest.some((w) => w === undefined || w === 'keyword' || (name === 'set' && /^[-+][A-Za-z]*k/.test(w)))) return KEYWORD_SET;
    if (name === 'shopt') {
      found ??= 'shopt';
      continue;
    }
    // By letter in any bundle, or by name wherever it stands (an `o` anywhere in a bundle takes a name).
    if (rest.some((w) => SET_LETTERS.test(w!) || SET_NAMES.has(w!))) found ??= 'set';
  }
  return found;
}

/** Why a command may run one bash's history makes (fc, history expansion turned on, an interactive shell); undefined when it cannot. */
export function historyRun(words: readonly (string | undefined)[]): string | undefined {
  const [first, ...rest] = words;
  const name = first === undefined ? undefined : commandBase(first);
  // `fc -l` only lists; anything else may run a command from the history.
  if (name === 'fc' && !rest.some((w) => w !== undefined && /^-[a-zA-Z]*l/.test(w))) return 'fc, which runs a command from the history';
  if ((name === 'set' || name === 'shopt') && rest.some((w) => w === undefined || w === 'histexpand' || w === 'history' || (name === 'set' && /^-[a-zA-Z]*H/.test(w)))) return 'history expansion turned on';
  // A shell told to be interactive or to expand history (`bash -H -o history`), by any option spelling.
  if (name !== undefined && SHELLS.has(name) && rest.some((w) => w === undefined || /^[-+][a-zA-Z]*[iH]/.test(w) || ['--interactive', 'history', 'histexpand'].includes(w))) return `a ${name} that expands history`;
  // mapfile's callback is a command it evaluates; script(1) gives a shell a terminal, which makes it interactive.
  if ((name === 'mapfile' || name === 'readarray') && rest.some((w) => w === undefined || /^-[a-zA-Z]*C/.test(w))) return `${name} -C, which evaluates a command`;
  if (name === 'script') return 'script, which runs an interactive shell';
  return undefined;
}

/** Parses a script (a command, or one run by `bash -c`, eval…) at the given nesting depth. */
export type ParseScript = (script: string, depth: number) => BashAnalysis | undefined;

interface Pending {
  command: { words: (string | undefined)[]; text: string; shapes: (Shape | undefined)[] };
  /** Fed a script by a here-doc or here-string. */
  fed: boolean;
  /** Here-docs and here-strings given to it (undefined where computed). */
  inputs: (string | undefined)[];
  /** Its output goes to a file, which the script (or a later command) may run. */
  writes?: boolean;
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

class Walker {
  readonly commands: SimpleCommand[] = [];
  readonly runs: SimpleCommand[] = [];
  readonly hazards = new Set<string>();
  readonly unseen = new Set<string>();
  readonly opaque: Opaque[] = [];
  readonly mentions = new Set<string>();
  readonly readsFrom: { text: string | undefined; shape?: Shape }[] = [];
  readonly writesTo: { text: string | undefined; shape?: Shape }[] = [];
  readonly assigned: { name: string; value: string }[] = [];
  /** Output redirections to a file seen so far (a compound statement's cover every command in it). */
  private fileWrites = 0;
  /** After `exec > file`, every command writes to the file. */
  private allWrite = false;

  constructor(private readonly inner: InnerScript) {}

  /** What reading another script found counts as found here too. */
  private absorb(found: Found): void {
    this.runs.push(...found.runs);
    for (const u of found.unseen) this.unseen.add(u);
    this.opaque.push(...found.opaque);
    for (const m of found.mentions) this.mentions.add(m);
    this.readsFrom.push(...(found.readsFrom ?? []));
    this.writesTo.push(...(found.writesTo ?? []));
    this.assigned.push(...(found.assigned ?? []));
  }

  private hazard(reason: string): void {
    this.hazards.add(reason);
  }

  private children(node: Node): void {
    for (const child of node.children) if (child) this.visit(child);
  }

  visit(node: Node): void {
    if (!node.isNamed) {
      if (node.type === '&') this.hazard('a background job (&), which would outlive the turn');
      return;
    }
    if (node.isMissing) this.hazard(PARSE_ERROR);
    switch (node.type) {
      case 'comment':
        return;
      case 'command':
        return this.finish(this.command(node));
      case 'redirected_statement':
        return this.redirected(node);
      case 'variable_assignment':
        return this.assignment(node);
      case 'compound_statement':
        if (node.child(0)?.type === '((') {
          this.hazard('arithmetic evaluation ((…))');
          if (/[A-Za-z_]/.test(node.text)) this.unseen.add(`arithmetic on a variable's value: ${clip(node.text)}`);
        }
        return this.children(node);
      case 'expansion':
        if (!isPlainExpansion(node)) {
          this.hazard(`the expansion ${clip(node.text)}`);
          // Operators, subscripts, offsets, @P and ! can run what a variable holds.
          this.unseen.add(`the expansion ${clip(node.text)}, which may run what a variable holds`);
          // The grammar leaves `…` inside ${x:+`…`} as a word: read the operand again as a script.
          if (/`|\$\(/.test(node.text)) this.rescan(`: ${node.text.slice(2, -1)}`);
        }
        return this.children(node);
      case 'arithmetic_expansion':
        if (/[A-Za-z_]/.test(node.text)) this.unseen.add(`arithmetic on a variable's value: ${clip(node.text)}`);
        break;
      case 'test_command':
        if (/\$|-(eq|ne|lt|le|gt|ge)\b/.test(node.text)) this.unseen.add(`a test that evaluates a variable's value: ${clip(node.text)}`);
        break;
      case 'file_redirect':
      case 'heredoc_redirect':
      case 'herestring_redirect':
        return this.redirect(node, undefined);
      case 'declaration_command':
      case 'unset_command':
        this.pseudoCommand(node);
        break;
      case 'for_statement': {
        // `for HISTFILE in ~/.ssh/id_rsa` assigns each value as written (pass 56 L1).
        const variable = node.childForFieldName('variable');
        for (const v of node.childrenForFieldName('value')) {
          // A glob (`~/.ssh/*`) is judged by its text, which a deny rule's pattern matches as a name.
          const literal = v ? (literalOf(v) ?? (/[$`]/.test(v.text) ? undefined : v.text.replace(/['"]/g, ''))) : undefined;
          if (variable && literal) this.assigned.push({ name: variable.text, value: literal });
        }
        break;
      }
      case 'pipeline':
        return this.pipeline(node);
    }
    if (!STRUCTURE.has(node.type) && !WORDISH.has(node.type)) this.hazard(HAZARDS[node.type] ?? `shell syntax not checked here (${node.type})`);
    this.children(node);
  }

  /** What is piped into a program it may run: the words of every command before it in the pipeline. */
  private pipeline(node: Node): void {
    const upstream: (string | undefined)[] = [];
    for (const child of node.children) {
      if (!child) continue;
      const opaqueFrom = this.opaque.length;
      const commandsFrom = this.commands.length;
      this.visit(child);
      for (let i = opaqueFrom; i < this.opaque.length; i++) this.opaque[i] = { ...this.opaque[i]!, inputs: [...this.opaque[i]!.inputs, ...upstream] };
      for (const c of this.commands.slice(commandsFrom)) upstream.push(...c.words);
    }
  }

  /** `export`, `declare`, `unset` are keywords to the grammar; deny rules still see them as commands. */
  private pseudoCommand(node: Node): void {
    const words = [node.child(0)?.type, ...node.namedChildren.map((c) => (c && c.type !== 'variable_assignment' ? literalOf(c) : c?.text))];
    this.finishWords({ command: { words, text: node.text, shapes: [] }, fed: false, inputs: [] });
  }

  private command(node: Node): Pending {
    const pending: Pending = { command: { words: [], text: node.text, shapes: [] }, fed: false, inputs: [] };
    const { words, shapes } = pending.command;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (field === 'name') {
        const target = child.namedChild(0);
        const w = target ? wordOf(target) : undefined;
        if (!w?.literal) this.hazard(`a command name computed when it runs (${clip(child.text)})`);
        words.push(w?.literal ? w.text : undefined);
        shapes[words.length - 1] = w?.literal ? undefined : shapeOf(target ?? child);
        this.children(child);
      } else if (child.type === 'variable_assignment') {
        this.assignment(child);
      } else if (child.type.endsWith('_redirect')) {
        this.redirect(child, pending);
      } else if (field === 'argument') {
        if (!child.isNamed) this.hazard(`${child.type} where the grammar and bash may disagree`);
        // The grammar files `$"…"` as an argument as a bare `$` and the string after it: one word
        // to bash, translated when it runs (see wordOf), so one word known only then.
        const next = node.child(i + 1);
        if (child.type === '$' && next && next.startIndex === child.endIndex && node.fieldNameForChild(i + 1) === 'argument') {
          words.push(undefined);
          shapes[words.length - 1] = { kind: 'computed' };
          this.visit(next);
          i++;
          continue;
        }
        const literal = literalOf(child);
        words.push(literal);
        if (literal === undefined) shapes[words.length - 1] = shapeOf(child);
        this.visit(child);
      } else {
        this.visit(child);
      }
    }
    return pending;
  }

  private redirected(node: Node): void {
    const body = node.childForFieldName('body');
    const pending = body?.type === 'command' ? this.command(body) : undefined;
    const from = this.commands.length;
    const writes = this.fileWrites;
    if (body && !pending) this.visit(body);
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (child && child.id !== body?.id) {
        if (child.type.endsWith('_redirect')) this.redirect(child, pending);
        else this.visit(child);
      }
    }
    if (pending) this.finish(pending);
    // `{ echo rm x; } > s`: what every command in the group prints may be run from the file.
    else if (this.fileWrites > writes) for (const c of this.commands.slice(from)) this.writer(c, []);
  }

  /** A command whose output lands in a file: its words and input are text a later command may run. */
  private writer(c: SimpleCommand, inputs: (string | undefined)[]): void {
    const name = c.words[0] ?? 'a command';
    this.opaque.push({ words: [`${name} (writing a file)`, ...c.words.slice(1)], text: c.text, ...(c.shapes ? { shapes: c.shapes } : {}), inputs, ...(writesVerbatim(c) ? {} : { decodesScript: true }) });
  }

  private assignment(node: Node): void {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (name?.type !== 'variable_name') this.hazard(`an assignment to ${clip(name?.text ?? node.text)}`);
    else if (!isInertVariable(name.text)) this.hazard(`setting ${name.text}`);
    else if (value && literalOf(value) === undefined) this.hazard(`setting ${name.text} to a computed value`);
    else if (!isInertValue(name.text, value ? literalOf(value)! : '')) this.hazard(`setting ${name.text} to a value that names a file (a / or ..)`);
    const literal = value ? literalOf(value) : '';
    if (name && literal) this.assigned.push({ name: name.text, value: literal });
    if (name && !isInertVariable(name.text)) {
      // Programs run what some variables hold (BASH_ENV, GIT_SSH_COMMAND, PAGER, LD_PRELOAD…).
      const v = value ? literalOf(value) : '';
      this.opaque.push({ words: [`${name.text}=`], text: node.text, inputs: [v], ...(v === undefined && value ? { shapes: [undefined] } : {}) });
    }
    if (value) this.visit(value);
    if (name && name.type !== 'variable_name') this.visit(name);
  }

  private redirect(node: Node, pending: Pending | undefined): void {
    if (node.type === 'herestring_redirect') {
      const content = node.namedChildren.find((c) => c !== null);
      this.feed(pending, content ? literalOf(content) : undefined, 'here-string');
      return this.children(node);
    }
    if (node.type === 'heredoc_redirect') return this.heredoc(node, pending);
    const op = node.children.find((c) => c && !c.isNamed)?.type ?? '';
    const targets = node.childrenForFieldName('destination').filter((c): c is Node => c !== null);
    const [first, ...extra] = targets;
    // The grammar files words after a redirection as further destinations; bash passes them as arguments.
    for (const w of extra) {
      if (!pending) continue;
      const literal = literalOf(w);
      pending.command.words.push(literal);
      if (literal === undefined) pending.command.shapes[pending.command.words.length - 1] = shapeOf(w);
    }
    if (extra.length > 0 && !pending) this.hazard('words after a redirection');
    const to = first ? literalOf(first) : undefined;
    if (op === '>&-' || op === '<&-') {
      // closing a descriptor
    } else if (op === '>&' || op === '<&') {
      // Only digits name a descriptor: the grammar also reads `1#x` (base notation) as a number, bash as a file.
      if (!first || !(/^\d+$/.test(first.text) || to === '-')) {
        this.hazard(`output redirected to a file (${clip(node.text)})`);
        this.wrote(pending);
        this.writesTo.push({ text: to, ...(to === undefined && first ? { shape: shapeOf(first) } : {}) });
      } else if (op === '>&' && Number(first.text) > 2) {
        // Descriptor 3 and up can only be something the script opened: a file, for all we know.
        this.wrote(pending);
      }
    } else if (op === '<') {
      this.readsFrom.push({ text: to, ...(to === undefined && first ? { shape: shapeOf(first) } : {}) });
      if (to === undefined || (to.startsWith('/dev/') && to !== '/dev/null')) this.hazard(`input read from ${clip(first?.text ?? '?')}`);
    } else if (OUTPUT_OPS.has(op)) {
      if (to === undefined || !OUTPUT_OK.has(to)) {
        this.hazard(`output redirected to a file (${clip(node.text)})`);
        this.wrote(pending);
        this.writesTo.push({ text: to, ...(to === undefined && first ? { shape: shapeOf(first) } : {}) });
      }
    } else {
      this.hazard(`the redirection ${clip(node.text)}`);
      // `<>` opens the file for reading and writing; any other operator is judged as both too.
      if (first) {
        this.readsFrom.push({ text: to, ...(to === undefined ? { shape: shapeOf(first) } : {}) });
        this.writesTo.push({ text: to, ...(to === undefined ? { shape: shapeOf(first) } : {}) });
      }
    }
    this.children(node);
  }

  private wrote(pending: Pending | undefined): void {
    this.fileWrites++;
    if (!pending) return;
    pending.writes = true;
    // `exec > s` sends everything after it to the file.
    if (pending.command.words.length === 1 && pending.command.words[0] === 'exec') this.allWrite = true;
  }

  private heredoc(node: Node, pending: Pending | undefined): void {
    const start = node.children.find((c) => c?.type === 'heredoc_start');
    const body = node.children.find((c) => c?.type === 'heredoc_body');
    const quoted = !!start && /['"\\]/.test(start.text);
    const text = body?.text ?? '';
    if (!quoted && /`|\$\(|\$\[|\$\{/.test(text)) {
      this.hazard('a here-doc with substitutions');
      // The grammar does not always see substitutions in a body; bash expands it as it would a
      // double-quoted string, so read it again as one.
      this.rescan(`: "${text.replace(/(\\*)"/g, (m, bs: string) => (bs.length % 2 === 0 ? `${bs}\\"` : m))}"`);
    }
    this.feed(pending, quoted || !/[`$]/.test(text) ? text : undefined, 'here-doc');
    for (const child of node.children) {
      if (!child || child.id === body?.id || child.id === start?.id) continue;
      if (child.type.endsWith('_redirect')) this.redirect(child, pending);
      else this.visit(child);
    }
    if (body && !quoted) this.children(body);
  }

  /** Reads text again as a script, for the commands a deny rule must see in it. */
  rescan(script: string): void {
    const found = this.inner(script);
    if (!found) {
      this.unseen.add(`text that could not be read again: ${clip(script)}`);
      return;
    }
    this.absorb(found);
  }

  /** Input for the command: when that command is a shell, the input is a script. */
  private feed(pending: Pending | undefined, script: string | undefined, what: string): void {
    const name = pending?.command.words[0];
    if (!pending || name === undefined) return;
    // Any other program may run what it is fed too (`gdb -x /dev/stdin <<<…`): see Opaque.
    if (!invokesShell(pending.command.words)) {
      pending.inputs.push(script);
      return;
    }
    this.hazard(`a ${what} that feeds a shell`);
    pending.fed = true;
    if (script === undefined) {
      this.unseen.add(`a ${what} computed when it runs, fed to ${name}`);
      return;
    }
    const found = this.inner(script);
    if (!found) this.unseen.add(`a ${what} that does not parse cleanly, fed to ${name}`);
    else this.absorb(found);
  }

  private finish(pending: Pending): void {
    this.finishWords(pending);
  }

  private finishWords({ command, fed, inputs, writes }: Pending): void {
    this.commands.push(command);
    if (writes || this.allWrite) this.writer(command, inputs);
    // `read NAME`, `printf -v NAME`, `declare NAME=…`: a name in a word may be a variable the script sets.
    for (const w of command.words) for (const m of w?.match(IDENTIFIER) ?? []) this.mentions.add(m);
    // A name glued to an option, or at the end of a bundle (`read -aCDPATH`, `printf -vHOME`), is named too (pass 47 C3).
    for (const w of command.words) if (w?.startsWith('-')) for (const m of w.match(IDENTIFIER) ?? []) for (let k = 1; k < m.length; k++) this.mentions.add(m.slice(k));
    const name = command.words[0];
    if (name !== undefined && EVALUATING_BUILTINS.has(name) && command.words.slice(1).some((w) => w === undefined || /[$`]/.test(w))) {
      this.hazard(`${name} with an argument it may evaluate`);
      this.unseen.add(`${name} with an argument it may evaluate: ${clip(command.text)}`);
    }
    // `printf -v NAME FORMAT VALUE` assigns as written too (pass 56 L1).
    if (name === 'printf' && command.words.some((w) => w === undefined || /^-[a-zA-Z]*v/.test(w))) {
      for (const w of command.words.slice(1)) if (w && !w.startsWith('-')) this.assigned.push({ name: 'printf -v', value: w });
    }
    const resolved = resolveCommand(command, this.inner, inputs);
    // bash's history builds a command from text no check read: `fc -s Q=m` after `history -s 'rQ x'`
    // runs `rm x` (pass 53 M1); `set -H` or an interactive shell expand `!!:s/Q/m/` and `^Q^m`.
    // Behind a wrapper too (`builtin fc`, `command fc`, `time fc`, pass 56 M2).
    const history = [command, ...resolved.runs].map((r) => historyRun(r.words)).find((h) => h !== undefined);
    if (history) {
      this.hazard(history);
      this.unseen.add(`${history}: ${clip(command.text)}`);
    }
    this.runs.push(...resolved.runs);
    for (const u of resolved.unseen) this.unseen.add(u);
    this.opaque.push(...resolved.opaque);
    for (const m of resolved.mentions) this.mentions.add(m);
    this.readsFrom.push(...resolved.readsFrom);
    this.writesTo.push(...resolved.writesTo);
    this.assigned.push(...resolved.assigned);
    if (resolved.shellReadsInput && !fed) this.unseen.add(`a shell that runs what it reads from its input: ${clip(command.text)}`);
  }
}

/** Reads one parsed script. `parse` parses the scripts found inside it (one level deeper). */
/** For a program whose files are known: whether it writes one (undefined: not known). */
function writesKnownFiles(c: SimpleCommand): boolean | undefined {
  const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
  if (name === undefined || !knowsWrites(name)) return undefined;
  return pathArgs(c).some((a) => a.write);
}

export function analyzeTree(root: Node, source: string, depth: number, parse: ParseScript): BashAnalysis {
  const walker = new Walker((script) => parse(script, depth + 1));
  walker.visit(root);
  const glued = gluedContinuation(source);
  if (glued) {
    // bash joins `r\<newline>m` into `rm`; the grammar splits it in two. Read the joined text too.
    walker.hazards.add('a line continuation inside a word');
    walker.rescan(source.replace(/\\\n/g, ''));
  }
  if (hasControl(source)) walker.hazards.add('control characters');
  // Every name spelled in the text other than right after `$` or `${`: assignments, loop variables, `read x`…
  // Also once quotes and backslashes are gone: `HO\ME`, `HO""ME` spell HOME to a nameref or `read`.
  for (const text of [source, source.replace(/\\\n/g, '').replace(/['"\\]/g, '')]) for (const m of text.matchAll(/(?<![$\w]|\$\{)[A-Za-z_][A-Za-z0-9_]*/g)) walker.mentions.add(m[0]);
  // `${NAME:=value}` assigns its value as written (pass 56 L1).
  for (const m of source.matchAll(/\$\{([A-Za-z_]\w*):?=([^}]*)\}/g)) if (m[2]) walker.assigned.push({ name: m[1]!, value: m[2].replace(/^['"]|['"]$/g, '') });
  const diverging = divergences(root, source);
  for (const d of diverging) {
    walker.hazards.add(d);
    walker.unseen.add(`${d}, where bash and the parser may see different commands`);
  }
  if (root.hasError) {
    walker.hazards.add(PARSE_ERROR);
    walker.unseen.add(PARSE_ERROR);
  }
  // A decoding writer matters only where the script also runs a file it may have written: decided
  // for the whole command, since a script inside it (`bash -c "printf … > s"; bash s`) may write
  // what the outer one runs.
  if (!walker.commands.some(runsScriptFile)) {
    if (depth === 0) for (const o of walker.opaque) delete o.decodesScript;
  }
  else {
    // A program that writes files may write what a decoding part pipes into it (`printf 'r\155' |
    // tee s; sh s`, `| dd of=s`, `| cp /dev/stdin s`): only a redirect of a verbatim writer is read through.
    for (const c of walker.commands) {
      if (runsScriptFile(c) || writesNoFile(c, writesKnownFiles)) continue;
      walker.opaque.push({ words: [`${c.words[0] ?? 'a command'} (writing a file)`, ...c.words.slice(1)], text: c.text, inputs: [], decodesScript: true });
    }
  }
  return {
    // Where the grammar and bash may read the text differently, only the same text is the same command.
    normalized: root.hasError || glued || hasControl(source) || diverging.length > 0 ? `raw:${source.trim()}` : normalForm(root, source),
    commands: walker.commands,
    hazards: [...walker.hazards],
    runs: walker.runs,
    unseen: [...walker.unseen],
    opaque: walker.opaque,
    mentions: walker.mentions,
    readsFrom: walker.readsFrom,
    writesTo: walker.writesTo,
    assigned: walker.assigned,
    misread: root.hasError ? [...diverging, PARSE_ERROR] : diverging,
    globOptions: globOptionsOf(source, [...walker.commands, ...walker.runs]),
  };
}

