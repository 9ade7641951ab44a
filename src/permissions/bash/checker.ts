import { analyzeTree, type BashAnalysis } from './analyze';
import type { SimpleCommand } from './commands';
import { MAX_COMMAND_CHARS, sharedBashParser, type BashParser, type ParserStatus } from './parser';
import { opaqueMayRun } from './opaque';
import { optionInjection } from './options';
import { allowCovers, compilePattern, denyMatches, type BashPattern } from './rules';

/** The parts of a permission rule this module reads (permissions.ts owns the full type). */
export interface BashRule {
  /** undefined: every command. */
  pattern: string | undefined;
  /** A session grant: this one command, compared by its parsed form. */
  exact?: boolean;
  source: string;
}

export type Unavailable = { unavailable: string };

/** Recent analyses kept: a decision reads the same command once per rule. */
const CACHE_SIZE = 256;
const MAX_DEPTH = 8;
/** Scripts inside a command (`bash -c`, eval, here-docs) are not read after this long; what is left asks. */
const INNER_BUDGET_MS = 1_000;

/**
 * Bash commands judged on their parse tree (tree-sitter-bash) rather than their text. Every
 * answer is deny-by-default: what cannot be parsed, resolved or seen into is never allowed, and
 * a deny or ask rule that might apply asks.
 */
export class BashChecker {
  private readonly cache = new Map<string, BashAnalysis | Unavailable>();
  private readonly patterns = new Map<string, BashPattern>();

  private readonly cacheSize: number;

  constructor(
    private readonly parser: BashParser = sharedBashParser(),
    options: { cacheSize?: number } = {},
  ) {
    this.cacheSize = options.cacheSize ?? CACHE_SIZE;
    void parser.ready();
  }

  status(): ParserStatus {
    return this.parser.status();
  }

  ready(): Promise<ParserStatus> {
    return this.parser.ready();
  }

  analyze(command: string): BashAnalysis | Unavailable {
    const hit = this.cache.get(command);
    if (hit) {
      // Least recently used goes first: re-insert on every hit.
      this.cache.delete(command);
      this.cache.set(command, hit);
      return hit;
    }
    const result = this.compute(command);
    // Loading is not cached: the same command gets a real answer once the parser is there.
    if (this.parser.status().state === 'loading' || this.cacheSize === 0) return result;
    this.cache.set(command, result);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return result;
  }

  private compute(command: string): BashAnalysis | Unavailable {
    const status = this.parser.status();
    if (status.state === 'loading') return { unavailable: 'the shell parser is still loading' };
    if (status.state === 'failed') return { unavailable: `the shell parser could not load (${status.error}), so every command asks` };
    if (command.length > MAX_COMMAND_CHARS) return { unavailable: `the command is longer than ${MAX_COMMAND_CHARS} characters, too long to check` };
    const deadline = performance.now() + INNER_BUDGET_MS;
    const parse = (script: string, depth: number): BashAnalysis | undefined =>
      depth > MAX_DEPTH || (depth > 0 && performance.now() > deadline)
        ? undefined
        : this.parser.withTree(script, (tree) => analyzeTree(tree.rootNode, script, depth, parse));
    try {
      return parse(command, 0) ?? { unavailable: 'the command could not be parsed in time' };
    } catch (err) {
      // Text nested thousands deep (`$(`×1500) overflows the stack of the parser or the walk over
      // its tree (pass 71 M3): the command asks, as any command the checks cannot read does.
      if (err instanceof RangeError) return { unavailable: 'the command is nested too deeply to check' };
      throw err;
    }
  }

  private pattern(text: string): BashPattern {
    let p = this.patterns.get(text);
    if (!p) {
      p = compilePattern(text, (s) => this.ruleWords(s));
      this.patterns.set(text, p);
    }
    return p;
  }

  /** A rule's words as the shell would split them (`git commit -m "a b"` has four). */
  private ruleWords(text: string): string[] {
    const a = this.analyze(text);
    if (!('unavailable' in a) && a.commands.length === 1 && a.hazards.length === 0) {
      const words = a.commands[0]!.words;
      if (words.every((w): w is string => w !== undefined)) return [...words];
    }
    return text.trim().split(/\s+/).filter(Boolean);
  }

  /**
   * The allow rules that together cover the command: each of its simple commands matched by one,
   * nothing the rules cannot cover. A session grant covers exactly one command (any spelling of it).
   * `patterned`: the commands a prefix or wildcard rule covered, whose files the caller checks
   * (an exact rule or a grant names its files itself). Returns the reason instead when nothing covers it.
   */
  allowedBy(rules: readonly BashRule[], command: string): { rules: BashRule[]; patterned: SimpleCommand[] } | { reason: string } {
    const a = this.analyze(command);
    if ('unavailable' in a) return { reason: `Runs a shell command; ${a.unavailable}.` };
    const wide = rules.find((r) => r.pattern === undefined);
    if (wide) return { rules: [wide], patterned: [] };
    const grant = rules.find((r) => r.exact && r.pattern !== undefined && this.sameCommand(r.pattern, a));
    if (grant) return { rules: [grant], patterned: [] };
    const patterned = rules.filter((r) => !r.exact && r.pattern !== undefined);
    if (patterned.length === 0) return { reason: 'Runs a shell command.' };
    if (a.hazards.length > 0) return { reason: `Runs a shell command that no prefix rule covers: ${a.hazards.join('; ')}.` };
    if (a.commands.length === 0) return { reason: 'Runs a shell command.' };
    const used: BashRule[] = [];
    const checked: SimpleCommand[] = [];
    for (const c of a.commands) {
      const covering = patterned.filter((rule) => allowCovers(this.pattern(rule.pattern!), c.words));
      if (covering.length === 0) return { reason: `Runs a shell command; no allow rule covers ${JSON.stringify(c.text)}.` };
      // What follows a rule's words must not change what program or code runs (options.ts).
      const injected = covering.map((rule) => optionInjection(this.pattern(rule.pattern!), c, a.mentions));
      const k = injected.findIndex((why) => why === undefined);
      if (k < 0) return { reason: `Runs a shell command that ${covering[0]!.source} does not cover as it is: ${injected[0]}.` };
      const r = covering[k]!;
      if (!used.includes(r)) used.push(r);
      if (this.pattern(r.pattern!).kind !== 'exact') checked.push(c);
    }
    return { rules: used, patterned: checked };
  }

  private sameCommand(granted: string, a: BashAnalysis): boolean {
    const g = this.analyze(granted);
    return !('unavailable' in g) && g.normalized === a.normalized;
  }

  /**
   * The first rule (deny or ask) that surely matches something the command runs; else, when some
   * rule might match or the command hides what it runs, that rule with `sure: false`.
   */
  matchedBy(rules: readonly BashRule[], command: string): { rule: BashRule; sure: boolean; why?: string } | undefined {
    const wide = rules.find((r) => r.pattern === undefined);
    if (wide) return { rule: wide, sure: true };
    const patterned = rules.filter((r) => r.pattern !== undefined);
    if (patterned.length === 0) return undefined;
    const a = this.analyze(command);
    if ('unavailable' in a) return { rule: patterned[0]!, sure: false, why: a.unavailable };
    let maybe: { rule: BashRule; sure: boolean; why?: string } | undefined;
    for (const rule of patterned) {
      const p = this.pattern(rule.pattern!);
      for (const run of a.runs) {
        const m = denyMatches(p, run.words);
        if (m === 'yes') return { rule, sure: true };
        if (m === 'maybe') maybe ??= { rule, sure: false, why: `a computed word in ${JSON.stringify(run.text)}` };
      }
    }
    if (maybe) return maybe;
    if (a.unseen.length > 0) return { rule: patterned[0]!, sure: false, why: a.unseen[0] };
    for (const rule of patterned) {
      const p = this.pattern(rule.pattern!);
      for (const o of a.opaque) {
        const why = opaqueMayRun(p, o, a.mentions);
        if (why) return { rule, sure: false, why };
      }
    }
    return undefined;
  }
}

let shared: BashChecker | undefined;

/** The process-wide checker over the shared parser (its loading starts on the first call). */
export function sharedBashChecker(): BashChecker {
  shared ??= new BashChecker();
  return shared;
}
