// The server entries of the files users already have: Claude Code's `mcpServers` (.mcp.json,
// ~/.claude.json), VS Code's `servers` (.vscode/mcp.json) and Threadline's own setting, which
// takes Claude Code's form. One zod schema reads them all, so a typo is one clear sentence.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { McpServerSpec, McpTransportKind } from './types';

const stringMap = z.record(z.string(), z.string());

/**
 * An environment key the process would not receive as written: `A=B` reaches the child as the
 * variable `A` (the key `NODE_OPTIONS=--require ./x.js --title` sets NODE_OPTIONS while no check
 * sees that name), NUL ends it early, and an empty key sets nothing. Such an entry is refused.
 */
const envKeyProblem = (k: string): string | undefined => (k === '' ? 'is empty' : k.includes('=') ? 'contains "="' : k.includes('\0') ? 'contains a NUL character' : undefined);

/** The first string of an entry the process could not be given as written (a NUL ends it early). */
function nulIn(e: { command?: string | undefined; args?: string[] | undefined; env?: Record<string, string> | undefined; cwd?: string | undefined }): string | undefined {
  if (e.command?.includes('\0')) return '"command"';
  if (e.args?.some((a) => a.includes('\0'))) return '"args"';
  if (e.cwd?.includes('\0')) return '"cwd"';
  const k = Object.entries(e.env ?? {}).find(([, v]) => v.includes('\0'))?.[0];
  return k !== undefined ? `"env.${JSON.stringify(k).slice(1, -1)}"` : undefined;
}

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
  for (const k of Object.keys(e.env ?? {})) {
    const problem = envKeyProblem(k);
    if (problem) return { ok: false, error: `server "${name}": the "env" key ${JSON.stringify(k)} ${problem}, so the server would not get the variable as written; it is not started` };
  }
  const nul = nulIn(e);
  if (nul) return { ok: false, error: `server "${name}": ${nul} contains a NUL character; it is not started` };
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

export { describeSpec, type DescribeContext } from './describe';
