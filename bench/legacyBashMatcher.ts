// The string matcher Bash rules used before the parser (src/permissions/permissions.ts until the
// tree-sitter check replaced it), kept only as the benchmark's baseline.
const SUBSTITUTION = /`|\$\(|<\(|>\(/;
const SEPARATORS = /&&|\|\||;|\||&|\n/;

function bashMatches(p: string, command: string): boolean {
  if (p.endsWith(':*')) {
    const prefix = p.slice(0, -2).trim();
    return command === prefix || command.startsWith(`${prefix} `);
  }
  return command === p;
}

function ruleMatches(pattern: string | undefined, command: string, mode: 'allow' | 'deny'): boolean {
  if (pattern === undefined) return true;
  const subject = command.trim();
  const parts = subject.split(SEPARATORS).map((x) => x.trim()).filter(Boolean);
  if (mode !== 'allow') return parts.some((c) => bashMatches(pattern, c));
  if (SUBSTITUTION.test(subject)) return false;
  return parts.length > 0 && parts.every((c) => bashMatches(pattern, c));
}

const patternOf = (rule: string): string | undefined => {
  const m = /^Bash(?:\((.*)\))?$/s.exec(rule.trim());
  const p = m?.[1]?.trim();
  return p === '' || p === '*' ? undefined : p;
};

/** The old decision for a Bash command: deny rules, then one allow rule covering every part. */
export function legacyDecide(rules: { allow: readonly string[]; deny: readonly string[] }, command: string): 'allow' | 'ask' | 'deny' {
  if (rules.deny.some((r) => ruleMatches(patternOf(r), command, 'deny'))) return 'deny';
  if (rules.allow.some((r) => ruleMatches(patternOf(r), command, 'allow'))) return 'allow';
  return 'ask';
}
