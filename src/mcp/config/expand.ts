// `${…}` in a server's command, arguments, environment, folder, URL and headers: Claude Code's
// `${VAR}` and `${VAR:-default}`, and VS Code's `${env:VAR}`, `${workspaceFolder}`,
// `${userHome}`, `${pathSeparator}` and `${input:id}` (asked for once, kept as a secret).
import { sep } from 'node:path';
import type { McpServerSpec, ResolvedSpec } from './types';

export interface ExpandContext {
  env: NodeJS.ProcessEnv;
  workspaceFolder: string;
  home: string;
  /**
   * The value of a VS Code `inputs` entry; undefined when the user gave none. Without it (the
   * CLI), a server that uses one cannot start, and says so.
   */
  input?(id: string): Promise<string | undefined>;
}

export type Expanded = { ok: true; spec: ResolvedSpec } | { ok: false; error: string };

const TOKEN = /\$\{([^}]*)\}/g;

class Missing extends Error {}

async function expandString(s: string, ctx: ExpandContext, missing: Set<string>): Promise<string> {
  const parts: string[] = [];
  let last = 0;
  for (const m of s.matchAll(TOKEN)) {
    parts.push(s.slice(last, m.index));
    last = m.index + m[0].length;
    parts.push(await expandToken(m[1]!, m[0], ctx, missing));
  }
  parts.push(s.slice(last));
  return parts.join('');
}

async function expandToken(body: string, whole: string, ctx: ExpandContext, missing: Set<string>): Promise<string> {
  if (body === 'workspaceFolder') return ctx.workspaceFolder;
  if (body === 'userHome') return ctx.home;
  if (body === 'pathSeparator' || body === '/') return sep;
  if (body.startsWith('env:')) {
    const v = ctx.env[body.slice(4)];
    if (v === undefined) missing.add(body.slice(4));
    return v ?? '';
  }
  if (body.startsWith('input:')) {
    const id = body.slice(6);
    if (!ctx.input) throw new Missing(`it uses \${input:${id}}, which only the VS Code extension can ask for; use \${VAR} with an environment variable here`);
    const v = await ctx.input(id);
    if (v === undefined) throw new Missing(`no value was given for \${input:${id}}`);
    return v;
  }
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(body);
  if (!m) return whole;
  const v = ctx.env[m[1]!];
  if (v !== undefined && v !== '') return v;
  if (m[2] !== undefined) return m[2];
  if (v === undefined) missing.add(m[1]!);
  return v ?? '';
}

/** The spec with every variable replaced, or why it cannot be: a variable that is not set and has no default. */
export async function expandSpec(spec: McpServerSpec, ctx: ExpandContext): Promise<Expanded> {
  const missing = new Set<string>();
  const str = (s: string) => expandString(s, ctx, missing);
  const map = async (m: Record<string, string> | undefined) => (m ? Object.fromEntries(await Promise.all(Object.entries(m).map(async ([k, v]) => [k, await str(v)] as const))) : undefined);
  try {
    const out: ResolvedSpec = { transport: spec.transport };
    if (spec.command !== undefined) out.command = await str(spec.command);
    if (spec.args) out.args = await Promise.all(spec.args.map(str));
    const env = await map(spec.env);
    if (env) out.env = env;
    if (spec.cwd !== undefined) out.cwd = await str(spec.cwd);
    if (spec.url !== undefined) out.url = await str(spec.url);
    const headers = await map(spec.headers);
    if (headers) out.headers = headers;
    if (spec.disabled) out.disabled = true;
    if (spec.oauth) out.oauth = { ...spec.oauth, ...(spec.oauth.clientId ? { clientId: await str(spec.oauth.clientId) } : {}), ...(spec.oauth.clientSecret ? { clientSecret: await str(spec.oauth.clientSecret) } : {}) };
    if (missing.size) return { ok: false, error: `it uses ${[...missing].map((v) => `\${${v}}`).join(', ')}, which ${missing.size === 1 ? 'is' : 'are'} not set (set ${missing.size === 1 ? 'it' : 'them'}, or write \${VAR:-default})` };
    return { ok: true, spec: out };
  } catch (err) {
    if (err instanceof Missing) return { ok: false, error: err.message };
    throw err;
  }
}

/** The `${input:id}` names a spec uses, so a host can ask for them before starting it. */
export function inputsUsed(spec: McpServerSpec): string[] {
  const all = [spec.command, ...(spec.args ?? []), ...Object.values(spec.env ?? {}), spec.cwd, spec.url, ...Object.values(spec.headers ?? {})].filter((s): s is string => s !== undefined);
  const ids = new Set<string>();
  for (const s of all) for (const m of s.matchAll(TOKEN)) if (m[1]!.startsWith('input:')) ids.add(m[1]!.slice(6));
  return [...ids];
}
