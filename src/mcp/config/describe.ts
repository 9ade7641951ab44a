// What a server runs, as the approval (the CLI's `mcp list` and `mcp approve`, the panel's box)
// and the status view show it. One function writes it for both faces, so both show the same
// warnings first, the same program and the same escapes.
import { visible } from '../../base/printable';
import { rulesNamingServer, type NamedRule } from '../names';
import { envVarsIn, mapSpecStrings, type SpecField } from './expand';
import { envFlags, judgeProgram, quote } from './program';
import type { McpServerSpec } from './types';

export interface DescribeContext {
  /** A server the workspace defines: the one that asks for approval, whose values are the workspace's choice. */
  fromWorkspace: boolean;
  /** The server's name, for the rules that name it. */
  name: string;
  home: string;
  workspace: string;
  /** Where it starts when its entry names no folder (startFolder's answer). */
  startDir: string;
  /** The environment it starts from (its PATH finds a bare command). */
  env: NodeJS.ProcessEnv;
  /** The allow rules in force, with where each is written: those naming this server are listed. */
  allowRules?: readonly NamedRule[];
}

const vars = (names: readonly string[]) => names.map((n) => `$${n}`).join(', ');

/**
 * Each name, with the variables of the user's environment its value takes in: a header of
 * `Bearer ${AWS_SECRET_ACCESS_KEY}` sends that secret to the server, and the approval must say so.
 */
function named(map: Record<string, string>): string {
  return Object.entries(map)
    .map(([k, v]) => (envVarsIn(v).length ? `${k} from ${vars(envVarsIn(v))}` : k))
    .join('; ');
}

const FIELD_LABEL: Record<Exclude<SpecField, 'env' | 'headers'>, string> = { command: 'command', args: 'arguments', cwd: 'folder', url: 'URL', oauth: 'OAuth client' };

/** The variables the other expanded strings take in (the command, its arguments, the URL, the OAuth client), by field: " (URL from $HOST)". */
function takenIn(spec: McpServerSpec): string {
  const by = new Map<string, Set<string>>();
  mapSpecStrings(spec, (s, field) => {
    if (field !== 'env' && field !== 'headers') for (const n of envVarsIn(s)) by.set(FIELD_LABEL[field], (by.get(FIELD_LABEL[field]) ?? new Set()).add(n));
    return s;
  });
  return [...by].map(([label, names]) => ` (${label} from ${vars([...names])})`).join('');
}

/** The command as a shell reads it back: a leading `~/` stays bare, since it is expanded to the home folder as a shell does. */
const commandWord = (c: string) => (/^~[/\\]./.test(c) ? `~/${quote(c.slice(2))}` : quote(c));

/** Each entry as written, `K=value`: `${VAR}` stays as written, so a secret of the user's environment shows as its name. */
function written(map: Record<string, string>): string {
  return Object.entries(map)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join('; ');
}

/**
 * What a server runs (unexpanded: no secret of the user's environment in it), naming every
 * environment variable it takes in: the same walk and the same token reader as the expander
 * (mapSpecStrings, envVarsIn), so what is sent cannot be more than what is shown. With a
 * context, the program the command resolves to (resolveCommand, as the spawn does). A server
 * the workspace defines shows its env and header values as written, since the workspace chose
 * them and they choose what runs, and starts with its CHECK warnings: the program is a file of
 * the workspace, an env key not known to be harmless, a start folder it picks, and your allow
 * rules that already let its tools run unasked (they name a server by its name, from any folder).
 * The user's own servers show only the names: their values may be the user's secrets.
 */
export function describeSpec(spec: McpServerSpec, ctx?: DescribeContext): string {
  const fromWorkspace = ctx?.fromWorkspace ?? false;
  const values = fromWorkspace ? written : named;
  const flags: string[] = [];
  let line: string;
  if (spec.transport !== 'stdio') line = `${spec.transport} ${quote(spec.url ?? '')}${spec.headers ? ` (headers: ${values(spec.headers)})` : ''}${takenIn(spec)}`;
  else {
    const env = spec.env && Object.keys(spec.env).length ? ` (env: ${values(spec.env)})` : '';
    const p = ctx ? judgeProgram(spec, ctx) : { shown: '', flags: [] };
    flags.push(...p.flags);
    if (fromWorkspace && spec.cwd) flags.push(`it starts in ${quote(spec.cwd)}, which decides what relative paths, npx and python -m find`);
    if (fromWorkspace) flags.push(...envFlags(Object.keys(spec.env ?? {})));
    line = `${[commandWord(spec.command ?? ''), ...(spec.args ?? []).map(quote)].join(' ')}${p.shown}${env}${spec.cwd ? ` (in ${quote(spec.cwd)})` : ''}${takenIn(spec)}`;
    if (fromWorkspace) line += " [starts in the workspace: npx, python -m and relative paths find the workspace's own files first]";
  }
  if (fromWorkspace && ctx) for (const r of rulesNamingServer(ctx.name, ctx.allowRules ?? [])) flags.push(`your allow rule ${r.rule} (${r.source}) lets its tools run without asking`);
  // Keys are not quoted: the last pass makes any control character in them visible too.
  return visible(`${flags.length ? `[CHECK: ${flags.join('; ')}] ` : ''}${line}`);
}
