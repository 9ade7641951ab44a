// The server entries of the files users already have: Claude Code's `mcpServers` (.mcp.json,
// ~/.claude.json), VS Code's `servers` (.vscode/mcp.json) and Threadline's own setting, which
// takes Claude Code's form. One zod schema reads them all, so a typo is one clear sentence.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { envVarsIn, mapSpecStrings, type SpecField } from './expand';
import type { McpServerSpec, McpTransportKind } from './types';

const stringMap = z.record(z.string(), z.string());

const entry = z
  .object({
    type: z.string().optional(),
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    cwd: z.string().optional(),
    url: z.string().optional(),
    headers: stringMap.optional(),
    disabled: z.boolean().optional(),
    oauth: z.object({ clientId: z.string().optional(), clientSecret: z.string().optional(), callbackPort: z.number().int().min(1).max(65535).optional() }).optional(),
  })
  // Other keys (VS Code's `dev`, `envFile`, Cline's `autoApprove`…) are not ours to refuse.
  .loose();

const TRANSPORTS: Record<string, McpTransportKind> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  sse: 'sse',
};

export type ParsedEntry = { ok: true; spec: McpServerSpec; hash: string; warnings: string[] } | { ok: false; error: string };

/** One server entry, or why it cannot be used. */
export function parseServerEntry(name: string, raw: unknown): ParsedEntry {
  const r = entry.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const where = issue.path.length ? `"${issue.path.join('.')}"` : 'the entry';
    const kind = issue.code === 'invalid_type' ? (issue.expected === 'record' ? 'object of strings' : issue.expected) : undefined;
    return { ok: false, error: `server "${name}": ${where} ${kind ? `must be ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}` : issue.message}` };
  }
  const e = r.data;
  const warnings: string[] = [];
  let transport: McpTransportKind;
  if (e.type !== undefined) {
    const t = TRANSPORTS[e.type];
    if (!t) return { ok: false, error: `server "${name}": type "${e.type}" is not one of stdio, http, sse` };
    transport = t;
  } else if (e.command !== undefined) transport = 'stdio';
  else if (e.url !== undefined) transport = 'http';
  else return { ok: false, error: `server "${name}": it has neither a "command" (a local server) nor a "url" (a remote one)` };
  if (transport === 'stdio' && !e.command?.trim()) return { ok: false, error: `server "${name}": a stdio server needs a "command"` };
  if (transport !== 'stdio' && !e.url?.trim()) return { ok: false, error: `server "${name}": an ${transport} server needs a "url"` };
  if ((e as Record<string, unknown>).envFile !== undefined) warnings.push(`server "${name}": "envFile" is not read by Threadline; put the variables in "env"`);
  const spec: McpServerSpec =
    transport === 'stdio'
      ? { transport, command: e.command!, ...(e.args ? { args: e.args } : {}), ...(e.env ? { env: e.env } : {}), ...(e.cwd ? { cwd: e.cwd } : {}) }
      : { transport, url: e.url!, ...(e.headers ? { headers: e.headers } : {}), ...(e.oauth ? { oauth: e.oauth } : {}) };
  if (e.disabled) spec.disabled = true;
  return { ok: true, spec, hash: specHash(spec), warnings };
}

/** The identity of a definition as written: an approval holds for it, and a change asks again. */
function specHash(spec: McpServerSpec): string {
  const canonical = JSON.stringify(spec, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
  return createHash('sha256').update(canonical).digest('hex');
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

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Each entry as written, `K=value`: `${VAR}` stays as written, so a secret of the user's environment shows as its name. */
function written(map: Record<string, string>): string {
  return Object.entries(map)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join('; ');
}

/** Variables that choose which program runs, or what the program loads, rather than what it is told. */
const CHOOSES_PROGRAM = /^(PATH|PATHEXT)$/i;
const CHOOSES_LOADED = /^(NODE_OPTIONS|NODE_PATH|NODE_EXTRA_CA_CERTS|LD_\w*|DYLD_\w*|PYTHON\w*|PIP_\w*|UV_\w*|NPM_CONFIG_\w*|PERL5\w*|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|BASH_ENV|ENV|GIT_\w*|HOME|XDG_\w*|DENO_\w*|BUN_\w*)$/i;

/** A command that names a file by a relative path (or by the workspace), so the workspace chooses it. */
const isRelativeCommand = (c: string) => /\$\{workspaceFolder\}/.test(c) || (/[/\\]/.test(c) && !/^([/\\]|[A-Za-z]:[/\\]|~[/\\]|\$\{userHome\})/.test(c));

/**
 * What the approval of a workspace's stdio server must say beyond the command line: it starts in
 * the workspace, where `npx` and `python -m` find the workspace's own packages and modules first,
 * and which settings of its definition choose the program that runs or what it loads.
 */
function workspaceWarnings(spec: McpServerSpec): string {
  const flags: string[] = [];
  if (spec.command && isRelativeCommand(spec.command)) flags.push(`the command ${quote(spec.command)} is a file the workspace chooses`);
  if (spec.cwd) flags.push(`it starts in ${quote(spec.cwd)}, which decides what relative paths, npx and python -m find`);
  for (const k of Object.keys(spec.env ?? {})) {
    if (CHOOSES_PROGRAM.test(k)) flags.push(`env ${k} chooses which program runs`);
    else if (CHOOSES_LOADED.test(k)) flags.push(`env ${k} chooses what the program loads`);
  }
  const where = ' [starts in the workspace: npx, python -m and relative paths find the workspace\'s own files first';
  return `${where}${flags.length ? `; CHECK: ${flags.join('; ')}` : ''}]`;
}

/**
 * What a server runs, as the approval prompt and the status view show it (unexpanded: no secret
 * of the user's environment in it), naming every environment variable it takes in: the same walk
 * and the same token reader as the expander (mapSpecStrings, envVarsIn), so what is sent cannot
 * be more than what is shown. A server the workspace defines (`fromWorkspace`: the one that asks
 * for approval) shows its env and header values as written, since the workspace chose them and
 * they choose what runs (PATH, NODE_OPTIONS), and says what starting in the workspace means. The
 * user's own servers show only the names: their values may be the user's secrets.
 */
export function describeSpec(spec: McpServerSpec, fromWorkspace = false): string {
  const values = fromWorkspace ? written : named;
  if (spec.transport !== 'stdio') return `${spec.transport} ${spec.url ?? ''}${spec.headers ? ` (headers: ${values(spec.headers)})` : ''}${takenIn(spec)}`;
  const env = spec.env && Object.keys(spec.env).length ? ` (env: ${values(spec.env)})` : '';
  const line = `${[spec.command ?? '', ...(spec.args ?? [])].map(quote).join(' ')}${env}${spec.cwd ? ` (in ${spec.cwd})` : ''}${takenIn(spec)}`;
  return fromWorkspace ? `${line}${workspaceWarnings(spec)}` : line;
}
