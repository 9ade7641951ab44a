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

/** What one `${…}` stands for. The expander and the approval's description both read tokens through this, so they cannot disagree on which variables a server takes in. */
export type Token = { kind: 'env'; name: string; fallback?: string } | { kind: 'input'; id: string } | { kind: 'workspaceFolder' | 'userHome' | 'pathSeparator' };

export function readToken(body: string): Token | undefined {
  if (body === 'workspaceFolder' || body === 'userHome') return { kind: body };
  if (body === 'pathSeparator' || body === '/') return { kind: 'pathSeparator' };
  if (body.startsWith('env:')) return { kind: 'env', name: body.slice(4) };
  if (body.startsWith('input:')) return { kind: 'input', id: body.slice(6) };
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(body);
  if (!m) return undefined;
  return { kind: 'env', name: m[1]!, ...(m[2] !== undefined ? { fallback: m[2] } : {}) };
}

/** The tokens of one string, in order. */
export function tokensIn(s: string): Token[] {
  return [...s.matchAll(TOKEN)].map((m) => readToken(m[1]!)).filter((t): t is Token => t !== undefined);
}

/** The names of the environment variables a string takes in when it is expanded. */
export function envVarsIn(s: string): string[] {
  return [...new Set(tokensIn(s).flatMap((t) => (t.kind === 'env' ? [t.name] : [])))];
}

/** Which part of a definition a string is, for the description: "env", "headers", "oauth"… */
export type SpecField = 'command' | 'args' | 'env' | 'cwd' | 'url' | 'headers' | 'oauth';

/**
 * Every string of a definition that is expanded, with its field and (for maps) its key, mapped
 * by `f` in one fixed order: the expander maps exactly these, and the description and
 * inputsUsed read exactly these.
 */
export function mapSpecStrings(spec: McpServerSpec, f: (s: string, field: SpecField, key?: string) => string): ResolvedSpec {
  const map = (m: Record<string, string> | undefined, field: SpecField) => (m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, f(v, field, k)] as const)) : undefined);
  const out: ResolvedSpec = { transport: spec.transport };
  if (spec.command !== undefined) out.command = f(spec.command, 'command');
  if (spec.args) out.args = spec.args.map((a) => f(a, 'args'));
  const env = map(spec.env, 'env');
  if (env) out.env = env;
  if (spec.cwd !== undefined) out.cwd = f(spec.cwd, 'cwd');
  if (spec.url !== undefined) out.url = f(spec.url, 'url');
  const headers = map(spec.headers, 'headers');
  if (headers) out.headers = headers;
  if (spec.disabled) out.disabled = true;
  if (spec.oauth) {
    const { clientId, clientSecret } = spec.oauth;
    out.oauth = { ...spec.oauth, ...(clientId ? { clientId: f(clientId, 'oauth', 'clientId') } : {}), ...(clientSecret ? { clientSecret: f(clientSecret, 'oauth', 'clientSecret') } : {}) };
  }
  return out;
}

async function expandString(s: string, ctx: ExpandContext, missing: Set<string>): Promise<string> {
  const parts: string[] = [];
  let last = 0;
  for (const m of s.matchAll(TOKEN)) {
    parts.push(s.slice(last, m.index));
    last = m.index + m[0].length;
    parts.push(await expandToken(readToken(m[1]!), m[0], ctx, missing));
  }
  parts.push(s.slice(last));
  return parts.join('');
}

/**
 * A string expanded without asking anyone, for the approval text: undefined when it takes an
 * `${input:…}`, a variable that is not set, or (without `env`) any environment variable, whose
 * value the text must not show.
 */
export function previewString(s: string, ctx: Pick<ExpandContext, 'env' | 'workspaceFolder' | 'home'>, opts: { env: boolean }): string | undefined {
  let unknown = false;
  const out = s.replace(TOKEN, (whole, body: string) => {
    const t = readToken(body);
    if (!t) return whole;
    if (t.kind === 'input' || (t.kind === 'env' && !opts.env)) {
      unknown = true;
      return whole;
    }
    const missing = new Set<string>();
    const v = plainToken(t, ctx, missing);
    if (missing.size) unknown = true;
    return v;
  });
  return unknown ? undefined : out;
}

/** Every token but an input: what it stands for, the same for the expander and the preview. */
function plainToken(t: Exclude<Token, { kind: 'input' }>, ctx: Pick<ExpandContext, 'env' | 'workspaceFolder' | 'home'>, missing: Set<string>): string {
  switch (t.kind) {
    case 'workspaceFolder':
      return ctx.workspaceFolder;
    case 'userHome':
      return ctx.home;
    case 'pathSeparator':
      return sep;
    case 'env': {
      const v = ctx.env[t.name];
      if (v !== undefined && v !== '') return v;
      if (t.fallback !== undefined) return t.fallback;
      if (v === undefined) missing.add(t.name);
      return v ?? '';
    }
  }
}

async function expandToken(t: Token | undefined, whole: string, ctx: ExpandContext, missing: Set<string>): Promise<string> {
  if (!t) return whole;
  if (t.kind !== 'input') return plainToken(t, ctx, missing);
  if (!ctx.input) throw new Missing(`it uses \${input:${t.id}}, which only the VS Code extension can ask for; use \${VAR} with an environment variable here`);
  const v = await ctx.input(t.id);
  if (v === undefined) throw new Missing(`no value was given for \${input:${t.id}}`);
  return v;
}

/** The spec with every variable replaced, or why it cannot be: a variable that is not set and has no default. */
export async function expandSpec(spec: McpServerSpec, ctx: ExpandContext): Promise<Expanded> {
  const missing = new Set<string>();
  try {
    // One at a time, in the walk's order: an `${input:…}` question waits for the one before it.
    const strings: string[] = [];
    mapSpecStrings(spec, (s) => (strings.push(s), s));
    const values: string[] = [];
    for (const s of strings) values.push(await expandString(s, ctx, missing));
    let i = 0;
    const out = mapSpecStrings(spec, () => values[i++]!);
    if (missing.size) return { ok: false, error: `it uses ${[...missing].map((v) => `\${${v}}`).join(', ')}, which ${missing.size === 1 ? 'is' : 'are'} not set (set ${missing.size === 1 ? 'it' : 'them'}, or write \${VAR:-default})` };
    return { ok: true, spec: out };
  } catch (err) {
    if (err instanceof Missing) return { ok: false, error: err.message };
    throw err;
  }
}

/** The `${input:id}` names a spec uses, so a host can ask for them before starting it. */
export function inputsUsed(spec: McpServerSpec): string[] {
  const ids = new Set<string>();
  mapSpecStrings(spec, (s) => {
    for (const t of tokensIn(s)) if (t.kind === 'input') ids.add(t.id);
    return s;
  });
  return [...ids];
}
