// Every flag the CLI knows, in one table: the parser's options, which flags take the next
// argument, which take a list, and the set a lone `-p` must not swallow are all read from here,
// and a test checks that each one is in the help text and the README. A flag added anywhere else
// is not a flag.

/** `value`: takes the next argument; `list`: every argument up to the next flag; `switch`: none. */
type FlagKind = 'value' | 'list' | 'switch';

interface FlagSpec {
  kind: FlagKind;
  short?: string;
  /** Other spellings users bring from Claude Code, read as this flag. */
  aliases?: readonly string[];
}

export const FLAGS = {
  print: { kind: 'value', short: 'p' },
  cwd: { kind: 'value' },
  model: { kind: 'value' },
  'context-window': { kind: 'value' },
  'max-turns': { kind: 'value' },
  'allowed-tools': { kind: 'list', aliases: ['allowedTools'] },
  'add-dir': { kind: 'list' },
  'mcp-config': { kind: 'list' },
  'strict-mcp-config': { kind: 'switch' },
  'output-format': { kind: 'value' },
  json: { kind: 'switch' },
  all: { kind: 'switch' },
  trust: { kind: 'switch' },
  list: { kind: 'switch' },
  revoke: { kind: 'switch' },
  continue: { kind: 'switch', short: 'c' },
  resume: { kind: 'value', short: 'r' },
  code: { kind: 'switch' },
  conversation: { kind: 'switch' },
  both: { kind: 'switch' },
  'dry-run': { kind: 'switch' },
  force: { kind: 'switch' },
  from: { kind: 'value' },
  'up-to': { kind: 'value' },
  focus: { kind: 'value' },
  undo: { kind: 'value' },
  help: { kind: 'switch', short: 'h' },
  version: { kind: 'switch', short: 'v' },
} as const satisfies Record<string, FlagSpec>;

type Flags = typeof FLAGS;
type ParseOption<S extends FlagSpec> = S extends { kind: 'list' }
  ? { type: 'string'; multiple: true; short?: string }
  : S extends { kind: 'value' }
    ? { type: 'string'; multiple?: false; short?: string }
    : { type: 'boolean'; multiple?: false; short?: string };

/** The options `node:util`'s parseArgs takes, built from the table. */
export const PARSE_OPTIONS = Object.fromEntries(
  Object.entries(FLAGS).map(([name, spec]: [string, FlagSpec]) => [
    name,
    { type: spec.kind === 'switch' ? 'boolean' : 'string', ...(spec.kind === 'list' ? { multiple: true } : {}), ...(spec.short ? { short: spec.short } : {}) },
  ]),
) as { [K in keyof Flags]: ParseOption<Flags[K]> };

const spellings = (name: string, spec: FlagSpec): string[] => [`--${name}`, ...(spec.aliases ?? []).map((a) => `--${a}`), ...(spec.short ? [`-${spec.short}`] : [])];

/** Each spelling of a list flag, mapped to its one long name. */
export const LIST_FLAGS: ReadonlyMap<string, string> = new Map(
  Object.entries(FLAGS).flatMap(([name, spec]: [string, FlagSpec]) => (spec.kind === 'list' ? spellings(name, spec).map((s) => [s, `--${name}`] as const) : [])),
);

/** Spellings whose value is the next argument, so a value is never mistaken for a list's item. */
export const VALUE_FLAGS: ReadonlySet<string> = new Set(Object.entries(FLAGS).flatMap(([name, spec]: [string, FlagSpec]) => (spec.kind === 'value' ? spellings(name, spec) : [])));

/** Every spelling of every flag. */
export const ALL_SPELLINGS: ReadonlySet<string> = new Set(Object.entries(FLAGS).flatMap(([name, spec]: [string, FlagSpec]) => spellings(name, spec)));

/** Aliases written with `=` (`--allowedTools=Read`), as the long name. */
export function canonicalInline(arg: string): string | undefined {
  const eq = arg.indexOf('=');
  if (eq < 0 || !arg.startsWith('--')) return undefined;
  const spelled = arg.slice(0, eq);
  const long = LIST_FLAGS.get(spelled);
  return long && long !== spelled ? `${long}${arg.slice(eq)}` : undefined;
}
