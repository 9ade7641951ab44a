// What a server runs, as the approval (the CLI's `mcp list` and `mcp approve`, the panel's box)
// and the status view show it. One function writes it for both faces, so both show the same
// warnings first, the same program and the same escapes.
import { resolve } from 'node:path';
import { hasUnsafe, visible } from '../../base/printable';
import { rulesNamingServer, type NamedRule } from '../names';
import { expandHome, pathOf, resolveCommand } from './command';
import { envVarsIn, mapSpecStrings, previewString, type SpecField } from './expand';
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

/**
 * A word as a shell reads it back: bare when plain, in '…' otherwise, and in $'…' with escapes
 * when it holds a control character (a newline shows as \n, and cannot start a line of its own).
 */
const quote = (s: string) => {
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  if (!hasUnsafe(s)) return `'${s.replace(/'/g, `'\\''`)}'`;
  return `$'${visible(s.replace(/\\/g, '\\\\').replace(/'/g, "\\'"))}'`;
};

/** The command as a shell reads it back: a leading `~/` stays bare, since it is expanded to the home folder as a shell does. */
const commandWord = (c: string) => (/^~[/\\]./.test(c) ? `~/${quote(c.slice(2))}` : quote(c));

/** Each entry as written, `K=value`: `${VAR}` stays as written, so a secret of the user's environment shows as its name. */
function written(map: Record<string, string>): string {
  return Object.entries(map)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join('; ');
}

/** Variables that choose which program runs, or what the program loads, named as such. */
const CHOOSES_PROGRAM = /^(PATH|PATHEXT)$/i;
const CHOOSES_LOADED =
  /^(NODE_\w*|LD_\w*|DYLD_\w*|PYTHON\w*|PYENV_\w*|PIP_\w*|UV_\w*|VIRTUAL_ENV|CONDA_\w*|NPM_CONFIG_\w*|YARN_\w*|PNPM_\w*|COREPACK_\w*|PERL5\w*|PERLLIB|RUBY\w*|GEM_\w*|BUNDLE_\w*|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|BASH_ENV|ENV|SHELLOPTS|GIT_\w*|HOME|XDG_\w*|DENO_\w*|BUN_\w*|OPENSSL_\w*|SSL_CERT_\w*|GCONV_PATH|LOCPATH|GO[A-Z0-9]*|CGO_\w*|RUSTC\w*|RUSTFLAGS|CARGO_\w*|RUSTUP_\w*|PHPRC|PHP_INI_SCAN_DIR|DOTNET_\w*|CORECLR_\w*|COMPlus_\w*|LUA_\w*|TCL\w*|R_\w*)$/i;
/**
 * The names a workspace's server may set without a CHECK: ones no runtime or loader reads to
 * find code (a credential's name, a log level). Not `*_URL` or `*_HOST`: PUPPETEER_DOWNLOAD_BASE_URL
 * and PLAYWRIGHT_DOWNLOAD_HOST choose a browser that is downloaded and run. Everything else is flagged, named or not in CHOOSES_LOADED: the list of variables
 * that load code is never complete (OPENSSL_CONF loads a provider into node before npx runs).
 */
const HARMLESS = /^(DEBUG|LOG_LEVEL|NO_COLOR|FORCE_COLOR|TZ|(?:[A-Z][A-Z0-9]*_)*(?:API_KEY|TOKEN|ACCESS_TOKEN|SECRET|PASSWORD))$/;

function envFlags(env: Record<string, string> | undefined): string[] {
  const flags: string[] = [];
  for (const k of Object.keys(env ?? {})) {
    if (CHOOSES_PROGRAM.test(k)) flags.push(`env ${k} chooses which program runs`);
    else if (CHOOSES_LOADED.test(k)) flags.push(`env ${k} chooses what the program loads`);
    else if (!HARMLESS.test(k)) flags.push(`env ${k} is not one Threadline knows to be harmless (it may choose what the program loads)`);
  }
  return flags;
}

/** The program the command runs, as far as it can be told without the user's secrets: resolveCommand's answer. */
function program(spec: McpServerSpec, ctx: DescribeContext): { shown: string; flag?: string } {
  const plain = { env: {}, workspaceFolder: ctx.workspace, home: ctx.home };
  const command = previewString(spec.command ?? '', plain, { env: false });
  // A command taken from an environment variable is named as such (takenIn); its value is not shown.
  if (command === undefined) return { shown: '' };
  const cwd = spec.cwd === undefined ? undefined : previewString(spec.cwd, plain, { env: false });
  if (spec.cwd !== undefined && cwd === undefined) return { shown: '' };
  const startDir = cwd === undefined ? ctx.startDir : resolve(ctx.startDir, expandHome(cwd, ctx.home) ?? cwd);
  const ownPath = pathOf(spec.env, {});
  const path = ownPath === undefined ? pathOf(undefined, ctx.env) : previewString(ownPath, { ...plain, env: ctx.env }, { env: true });
  const r = resolveCommand(command, { home: ctx.home, workspace: ctx.workspace, startDir, path });
  if (!r.ok) return { shown: ` (cannot start: ${r.error})` };
  const shown = r.program === command ? '' : ` (runs ${quote(r.program)})`;
  return { shown, ...(r.inWorkspace && ctx.fromWorkspace ? { flag: `the program ${quote(r.program)} is a file inside the workspace` } : {}) };
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
    const p = ctx ? program(spec, ctx) : { shown: '' };
    if (p.flag) flags.push(p.flag);
    if (fromWorkspace && spec.cwd) flags.push(`it starts in ${quote(spec.cwd)}, which decides what relative paths, npx and python -m find`);
    if (fromWorkspace) flags.push(...envFlags(spec.env));
    line = `${[commandWord(spec.command ?? ''), ...(spec.args ?? []).map(quote)].join(' ')}${p.shown}${env}${spec.cwd ? ` (in ${quote(spec.cwd)})` : ''}${takenIn(spec)}`;
    if (fromWorkspace) line += " [starts in the workspace: npx, python -m and relative paths find the workspace's own files first]";
  }
  if (fromWorkspace && ctx) for (const r of rulesNamingServer(ctx.name, ctx.allowRules ?? [])) flags.push(`your allow rule ${r.rule} (${r.source}) lets its tools run without asking`);
  // Keys are not quoted: the last pass makes any control character in them visible too.
  return visible(`${flags.length ? `[CHECK: ${flags.join('; ')}] ` : ''}${line}`);
}
