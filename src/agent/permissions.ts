import { isAbsolute, relative, sep } from 'node:path';
import { sharedBashChecker, type BashChecker } from './bash/checker';
import type { PermissionEngine, PermissionVerdict } from './permissionBroker';
import { globToRegExp } from '../tools/glob';
import { isInside, toolPaths } from '../tools/paths';
import type { Tool } from '../tools/types';

export interface PermissionRules {
  allow: readonly string[];
  ask: readonly string[];
  deny: readonly string[];
}

export interface PermissionOptions {
  cwd: string;
  /** Read on every decision, so a settings change applies to the next call. */
  rules(): PermissionRules;
  /** Workspace Trust: an untrusted folder gets no tool that writes or executes. */
  trusted(): boolean;
  /** No one to ask (the CLI): what would ask is denied, with the reason. */
  headless?: boolean;
  /** Judges Bash commands on their parse tree; one shared parser unless a test gives its own. */
  bash?: BashChecker;
}

export interface ParsedRule {
  tool: string;
  /** undefined: every call of the tool. */
  pattern: string | undefined;
  source: string;
  /** Session grants name one exact command or path, never a pattern. */
  exact?: boolean;
}

export class RuleSyntaxError extends Error {}

const RULE = /^([A-Za-z_][\w-]*)(?:\((.*)\))?$/s;

/** `Tool` or `Tool(pattern)`, as Claude Code writes them, so users' rules carry over. */
export function parseRule(source: string): ParsedRule {
  const m = RULE.exec(source.trim());
  if (!m) throw new RuleSyntaxError(`not a permission rule: ${JSON.stringify(source)} (expected Tool or Tool(pattern))`);
  const pattern = m[2]?.trim();
  return { tool: m[1]!, pattern: pattern === '' || pattern === '*' ? undefined : pattern, source };
}

/** What a rule's pattern is matched against for this call. */
function subjects(tool: Tool, input: unknown, cwd: string): string[] {
  if (tool.traits.readsFiles || tool.traits.writesFiles) {
    return toolPaths(tool, input, cwd).flatMap((abs) => {
      const rel = relative(cwd, abs);
      const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
      return inside ? [rel.split(sep).join('/'), abs] : [abs];
    });
  }
  return [];
}

function patternMatches(rule: ParsedRule, subject: string): boolean {
  const p = rule.pattern!;
  if (rule.exact) return subject === p;
  return globToRegExp(p).test(subject);
}

type RuleMode = 'allow' | 'ask' | 'deny';

function bashCommand(input: unknown): string {
  const command = (input as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : '';
}

export function ruleMatches(rule: ParsedRule, tool: Tool, input: unknown, cwd: string, mode: RuleMode = 'allow', bash: BashChecker = sharedBashChecker()): boolean {
  if (rule.tool !== tool.name) return false;
  if (rule.pattern === undefined) return true;
  if (tool.traits.runsCommands) {
    // Bash rules are judged on the parsed command (src/agent/bash/), never on its text.
    if (mode === 'allow') return 'rules' in bash.allowedBy([rule], bashCommand(input));
    return bash.matchedBy([rule], bashCommand(input))?.sure === true;
  }
  const subs = subjects(tool, input, cwd);
  return subs.length > 0 && subs.some((s) => patternMatches(rule, s));
}

/**
 * Decides allow / ask / deny for one tool call: deny rules, then ask rules, then allow rules
 * and this session's grants, then the defaults (read-only inside the workspace runs; edits,
 * commands and anything outside the workspace ask).
 */
export class Permissions implements PermissionEngine {
  private readonly grants: ParsedRule[] = [];
  private warned = new Set<string>();
  private readonly bash: BashChecker;

  constructor(
    private readonly opts: PermissionOptions,
    private readonly onBadRule: (message: string) => void = () => undefined,
  ) {
    // Starts loading the shell parser now, so it is ready by the first command.
    this.bash = opts.bash ?? sharedBashChecker();
  }

  private parsed(list: readonly string[]): ParsedRule[] {
    const out: ParsedRule[] = [];
    for (const source of list) {
      try {
        out.push(parseRule(source));
      } catch (e) {
        // A typo in one rule must not stop the agent; say it once.
        if (!this.warned.has(source)) {
          this.warned.add(source);
          this.onBadRule(e instanceof Error ? e.message : String(e));
        }
      }
    }
    return out;
  }

  /** Resolves once the shell parser has loaded (or failed to): Bash decisions wait for it. */
  async ready(): Promise<void> {
    await this.bash.ready();
  }

  /** A Bash command decided before `ready()` resolves asks, saying so. */
  decide(call: { tool: Tool; input: unknown }): PermissionVerdict {
    const verdict = this.rawDecide(call);
    if (verdict.behavior === 'ask' && this.opts.headless) {
      return { behavior: 'deny', reason: `${verdict.reason} No one can be asked in a headless run; allow it with --allowed-tools.` };
    }
    return verdict;
  }

  private rawDecide({ tool, input }: { tool: Tool; input: unknown }): PermissionVerdict {
    const { cwd } = this.opts;
    const rules = this.opts.rules();
    const readOnly = safeReadOnly(tool, input);
    if (!readOnly && !this.opts.trusted()) {
      return { behavior: 'deny', reason: `${tool.name} is not available in Restricted Mode: trust this folder to let Threadline edit files or run commands.` };
    }
    const match = (list: readonly ParsedRule[], mode: RuleMode) => list.find((r) => ruleMatches(r, tool, input, cwd, mode, this.bash));
    const denied = match(this.parsed(rules.deny), 'deny');
    if (denied) return { behavior: 'deny', reason: `Denied by the rule ${denied.source}.` };
    const asked = match(this.parsed(rules.ask), 'ask');
    if (asked) return { behavior: 'ask', reason: `The rule ${asked.source} asks first.` };
    if (tool.traits.runsCommands) {
      const unsure = this.bash.matchedBy([...this.parsed(rules.deny), ...this.parsed(rules.ask)].filter((r) => r.tool === tool.name), bashCommand(input));
      if (unsure) return { behavior: 'ask', reason: `The rule ${unsure.rule.source} may apply: ${unsure.why ?? 'it cannot be checked'}.` };
      const allowed = this.bash.allowedBy([...this.parsed(rules.allow), ...this.grants].filter((r) => r.tool === tool.name), bashCommand(input));
      if ('rules' in allowed) return { behavior: 'allow', reason: `Allowed by ${allowed.rules.map((r) => r.source).join(', ')}.` };
      return { behavior: 'ask', reason: allowed.reason };
    }
    const outside = toolPaths(tool, input, cwd).filter((p) => !isInside(cwd, p));
    // Outside the workspace only a rule naming a path reaches; a tool-wide rule does not.
    const allowList = [...this.parsed(rules.allow), ...this.grants].filter((r) => outside.length === 0 || r.pattern !== undefined);
    const allowed = match(allowList, 'allow');
    if (allowed) return { behavior: 'allow', reason: `Allowed by ${allowed.source}.` };
    if (outside.length > 0) return { behavior: 'ask', reason: `${outside[0]} is outside the workspace.` };
    if (readOnly) return { behavior: 'allow', reason: 'Read-only.' };
    return { behavior: 'ask', reason: tool.traits.runsCommands ? 'Runs a shell command.' : 'Changes files.' };
  }

  /**
   * "Allow for this session": a command is granted exactly; file edits inside the workspace
   * are granted for the tool; a path outside the workspace is granted for that path only.
   */
  grantForSession({ tool, input }: { tool: Tool; input: unknown }): void {
    const { cwd } = this.opts;
    if (tool.traits.runsCommands) {
      // Exactly this command; it is compared by its parsed form, so only a respelling of it matches.
      const command = bashCommand(input).trim();
      if (command) this.grants.push({ tool: tool.name, pattern: command, exact: true, source: `${tool.name}(${command}) for this session` });
      return;
    }
    const outside = toolPaths(tool, input, cwd).filter((p) => !isInside(cwd, p));
    if (outside.length === 0) {
      this.grants.push({ tool: tool.name, pattern: undefined, source: `${tool.name} for this session` });
      return;
    }
    for (const p of outside) this.grants.push({ tool: tool.name, pattern: p, exact: true, source: `${tool.name}(${p}) for this session` });
  }
}

function safeReadOnly(tool: Tool, input: unknown): boolean {
  try {
    return tool.isReadOnly(input);
  } catch {
    return false;
  }
}
