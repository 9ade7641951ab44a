import { GlobSyntaxError } from '../tools/glob';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { sharedBashChecker, type BashChecker } from './bash/checker';
import { mcpRuleCovers } from './mcpRules';
import { parsePathPattern, pathPatternTester, type PathContext } from './pathRules';
import { realLocation } from '../fs/paths';
import { toolPaths } from '../tools/paths';
import type { ParsedRule } from './rules';
import type { Tool } from '../tools/types';

// Whether a permission rule (its syntax is permissions/rules.ts) speaks for a given tool call.

export { parseRule, RuleSyntaxError, type ParsedRule } from './rules';

/** Rule names of the built-in file tools: a rule names a tool, a call's tool is known by its traits. */
const EDIT_RULES = new Set(['Edit', 'Write']);
export const isFileTool = (tool: Tool) => Boolean(tool.traits.readsFiles || tool.traits.writesFiles);

/**
 * Whether a rule written for `ruleTool` speaks for a call of `callTool`. As in the reference, an
 * Edit rule covers every tool that edits files and a Read rule the tools that read them (Grep,
 * Glob). A deny or ask rule reaches further: a Write deny also holds for Edit.
 */
export function ruleCovers(ruleTool: string, call: Tool, mode: RuleMode = 'allow'): boolean {
  const mcp = mcpRuleCovers(ruleTool, call);
  if (mcp !== undefined) return mcp;
  if (ruleTool === call.name) return true;
  if (call.traits.writesFiles && (ruleTool === 'Edit' || (mode !== 'allow' && EDIT_RULES.has(ruleTool)))) return true;
  return ruleTool === 'Read' && Boolean(call.traits.readsFiles);
}

/** A path a call touches, as written (lexical) and where it really is (symlinks resolved). */
export interface Touched {
  lexical: string;
  real: string;
}

export function touchedPaths(tool: Tool, input: unknown, cwd: string): Touched[] {
  return toolPaths(tool, input, cwd).map((lexical) => ({ lexical, real: realLocation(lexical) }));
}

export function bashCommand(input: unknown): string {
  const command = (input as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : '';
}

/** A file rule's pattern against one absolute path (exact for a session grant). */
export function patternMatches(rule: ParsedRule, subject: string, mode: RuleMode, ctx: PathContext): boolean {
  return patternTester(rule, mode, ctx)(subject);
}

/**
 * The same test with the rule's pattern read and compiled once, for one search's many files
 * (pass 52 M1: a clone's 200 deny rules were read again for each of 100,000 files). Made afresh
 * for each search: the pattern's folders are placed where they really are at that time.
 */
export function patternTester(rule: ParsedRule, mode: RuleMode, ctx: PathContext): (subject: string) => boolean {
  const p = rule.pattern!;
  if (rule.exact) return (subject) => subject === p;
  try {
    return pathPatternTester(parsePathPattern(p, ctx, rule.root), mode !== 'allow');
  } catch (err) {
    // A pattern no glob can be made of (a look-around, too long): one clone's bad deny rule ended
    // every run (pass 33 A4). Deny-by-default: a deny or ask rule that cannot be read takes every
    // file of its tool; an allow rule takes none. Loading such a rule also warns (permissions.ts).
    if (err instanceof GlobSyntaxError) return () => mode !== 'allow';
    throw err;
  }
}

export type RuleMode = 'allow' | 'ask' | 'deny';

function defaultContext(cwd: string): PathContext {
  return { cwd: realLocation(resolve(cwd)), home: realLocation(homedir()) };
}

/**
 * Whether a rule matches a call. File rules are matched against the real path (symlinks
 * resolved): an allow rule must name where every touched file really is, while a deny or ask rule
 * catches the path as written too.
 */
export function ruleMatches(
  rule: ParsedRule,
  tool: Tool,
  input: unknown,
  cwd: string,
  mode: RuleMode = 'allow',
  bash: BashChecker = sharedBashChecker(),
  ctx?: PathContext,
  touched?: Touched[],
): boolean {
  if (!ruleCovers(rule.tool, tool, mode)) return false;
  if (rule.pattern === undefined) return true;
  if (tool.traits.runsCommands) {
    // Bash rules are judged on the parsed command (src/permissions/bash/), never on its text.
    if (mode === 'allow') return 'rules' in bash.allowedBy([rule], bashCommand(input));
    return bash.matchedBy([rule], bashCommand(input))?.sure === true;
  }
  if (!isFileTool(tool)) return false;
  const c = ctx ?? defaultContext(cwd);
  const t = touched ?? touchedPaths(tool, input, cwd);
  if (t.length === 0) return false;
  if (mode === 'allow') return t.every((x) => patternMatches(rule, x.real, mode, c));
  return t.some((x) => patternMatches(rule, x.real, mode, c) || patternMatches(rule, x.lexical, mode, c));
}
