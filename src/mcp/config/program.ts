// What a stdio server's command starts, judged for its approval: the program resolveCommand finds
// (the spawn's own lookup), the program a wrapper in front of it starts, and the variables either
// sets. Every CHECK about which program runs is written here, so a wrapper's program and the
// command itself meet the same rule.
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isInside } from '../../fs/paths';
import { existsSync } from '../../fs/stat';
import { hasUnsafe, visible } from '../../base/printable';
import { expandHome, pathOf, resolveCommand, type CommandPlace } from './command';
import { envVarsIn, previewString } from './expand';
import { isWrapper, unwrap } from './wrappers';
import type { McpServerSpec } from './types';

export interface ProgramContext {
  fromWorkspace: boolean;
  home: string;
  workspace: string;
  startDir: string;
  env: NodeJS.ProcessEnv;
}

/**
 * A word as a shell reads it back: bare when plain, in '…' otherwise, and in $'…' with escapes
 * when it holds a control character (a newline shows as \n, and cannot start a line of its own).
 */
export const quote = (s: string) => {
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  if (!hasUnsafe(s)) return `'${s.replace(/'/g, `'\\''`)}'`;
  return `$'${visible(s.replace(/\\/g, '\\\\').replace(/'/g, "\\'"))}'`;
};

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

/** The env-key CHECKs, for the env block and for the variables a wrapper sets or unsets alike. */
export function envFlags(keys: readonly string[]): string[] {
  const flags: string[] = [];
  for (const k of keys) {
    if (CHOOSES_PROGRAM.test(k)) flags.push(`env ${visible(k)} chooses which program runs`);
    else if (CHOOSES_LOADED.test(k)) flags.push(`env ${visible(k)} chooses what the program loads`);
    else if (!HARMLESS.test(k)) flags.push(`env ${visible(k)} is not one Threadline knows to be harmless (it may choose what the program loads)`);
  }
  return flags;
}

const UNKNOWN = 'so where it leads is not known before it runs';
/** Wrappers inside wrappers are followed this deep; deeper is not judged, and says so. */
const MAX_DEPTH = 8;

/**
 * The program the command runs, as far as it can be told without the user's secrets, and the
 * CHECKs a workspace's server gets for it: a program inside the workspace; a command whose
 * target is not known before it runs (taken from an environment variable, or through /proc or
 * /dev/fd, which are the started process's own); a wrapper, with what it starts judged the same way.
 */
export function judgeProgram(spec: McpServerSpec, ctx: ProgramContext): { shown: string; flags: string[] } {
  const plain = { env: {}, workspaceFolder: ctx.workspace, home: ctx.home };
  const raw = spec.command ?? '';
  const command = previewString(raw, plain, { env: false });
  const cwd = spec.cwd === undefined ? undefined : previewString(spec.cwd, plain, { env: false });
  const flags: string[] = [];
  if (command === undefined) {
    // A command taken from an environment variable is named as such (takenIn); its value is not shown.
    const names = envVarsIn(raw).map((n) => `$${n}`);
    if (ctx.fromWorkspace) flags.push(`its command ${quote(raw)} takes in ${names.length ? names.join(', ') : 'a value asked for when it starts'}, ${UNKNOWN}`);
    return { shown: '', flags };
  }
  const cwdKnown = spec.cwd === undefined || cwd !== undefined;
  if (!cwdKnown && /[/\\]/.test(command) && !isAbsolute(command) && expandHome(command, ctx.home) === undefined) {
    if (ctx.fromWorkspace) flags.push(`its command ${quote(raw)} is taken from its folder ${quote(spec.cwd ?? '')}, which takes in ${envVarsIn(spec.cwd ?? '').map((n) => `$${n}`).join(', ') || 'a value asked for when it starts'}, ${UNKNOWN}`);
    return { shown: '', flags };
  }
  const startDir = cwd === undefined ? ctx.startDir : resolve(ctx.startDir, expandHome(cwd, ctx.home) ?? cwd);
  const ownPath = pathOf(spec.env, {});
  const path = ownPath === undefined ? pathOf(undefined, ctx.env) : previewString(ownPath, { ...plain, env: ctx.env }, { env: true });
  const place: CommandPlace = { home: ctx.home, workspace: ctx.workspace, startDir, path };
  const r = resolveCommand(command, place);
  if (!r.ok) return { shown: ` (cannot start: ${r.error})`, flags };
  const shown = r.program === command ? '' : ` (runs ${quote(r.program)})`;
  if (!ctx.fromWorkspace) return { shown, flags };
  flags.push(...programFlags(r), ...loadFlags(r.program, spec.args ?? [], startDir, ctx.workspace, ctx.home));
  // With its folder not known, what a wrapper finds through a relative path is not known either.
  if (isWrapper(r.program)) flags.push(...wrapped(r.program, spec.args ?? [], cwdKnown ? place : undefined, ctx, 0));
  return { shown, flags };
}

function programFlags(r: { program: string; inWorkspace: boolean; viaProc?: boolean }): string[] {
  if (r.viaProc) return [`the program ${quote(r.program)} goes through /proc or /dev/fd, ${UNKNOWN}`];
  return r.inWorkspace ? [`the program ${quote(r.program)} is a file inside the workspace`] : [];
}

/**
 * The CHECKs for what a wrapper starts: it is named, the variables it sets go through envFlags,
 * and the program it starts goes through resolveCommand as execvp finds it (a relative PATH
 * entry counts there: nothing replaces the name by a full path). `place` is undefined when the
 * wrapper's own folder is not known (taken from a variable).
 */
function wrapped(command: string, args: readonly string[], place: CommandPlace | undefined, ctx: ProgramContext, depth: number): string[] {
  const w = unwrap(command, args);
  if (!w) return [];
  const by = `through ${w.wrapper}`;
  if (depth >= MAX_DEPTH) return [`it starts another program ${by}, wrapped too deep to follow, ${UNKNOWN}`];
  const flags = envFlags([...Object.keys(w.env), ...w.unset]);
  if (w.chdir !== undefined) flags.push(`it changes to ${quote(w.chdir)} ${by}, which decides what relative paths, npx and python -m find`);
  if (w.script !== undefined) return [`it runs the command line ${quote(w.script)} ${by}, whose programs Threadline does not look up, ${UNKNOWN}`, ...flags];
  if (w.unknown || (w.program === undefined && w.scriptFile === undefined)) return [`it starts another program ${by}, which Threadline cannot name from its arguments, ${UNKNOWN}`, ...flags];
  const target = (w.program ?? w.scriptFile)!;
  flags.unshift(`it starts ${w.scriptFile !== undefined ? 'the script' : 'the program'} ${quote(target)} ${by}`);
  if (!place || fromVariable(target)) return [...flags, `what ${w.wrapper} starts is not resolved here, ${UNKNOWN}`];
  const startDir = w.chdir === undefined ? place.startDir : resolve(place.startDir, w.chdir);
  const path = 'PATH' in w.env ? w.env.PATH : w.unset.includes('PATH') ? undefined : place.path;
  // A shell reads a script named without a slash from its folder first.
  const name = w.scriptFile !== undefined && !/[/\\]/.test(target) ? `./${target}` : target;
  const inner: CommandPlace = { ...place, startDir, path, asExecvp: true };
  const r = resolveCommand(name, inner);
  if (!r.ok) return [...flags, `${quote(target)} ${by} cannot be found before it runs, ${UNKNOWN}`];
  flags.push(...programFlags(r), ...loadFlags(r.program, w.args, startDir, ctx.workspace, ctx.home));
  if (w.program !== undefined && isWrapper(r.program)) flags.push(...wrapped(r.program, w.args, inner, ctx, depth + 1));
  return flags;
}

/** A word a wrapper takes as written that the shell or the wrapper may still expand. */
const fromVariable = (s: string) => /[$`]/.test(s);

/**
 * Files a package runner reads from the folder it starts in and the folders above it: `.npmrc`'s
 * node-options and script-shell, a local node_modules whose bin npx runs first, uv's and bun's
 * settings. A clone writes them, and the command line does not show them.
 */
const RUNNER_FILES: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(['npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'yarnpkg', 'corepack'].map((n) => [n, ['.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', 'node_modules']])),
  ...Object.fromEntries(['bun', 'bunx'].map((n) => [n, ['bunfig.toml', '.npmrc', 'node_modules']])),
  ...Object.fromEntries(['uv', 'uvx', 'pipx', 'poetry', 'pdm', 'hatch', 'rye'].map((n) => [n, ['uv.toml', 'pyproject.toml', 'poetry.toml', 'pdm.toml', '.python-version', '.venv']])),
  deno: ['deno.json', 'deno.jsonc', '.npmrc', 'node_modules'],
};

/** Options by which node, deno and bun load a module before the program (`--require dotenv/config`). */
const PRELOADS = /^(-r|--require|--import|--loader|--experimental-loader|--preload)(=|$)/;

/** Options by which a program sets variables, or reads its settings, from a file (`node --env-file`, `npx --userconfig`). */
const LOADS_FILE = /^--(env-file|env-file-if-exists|userconfig|globalconfig)(=|$)/;

/** The CHECKs for files a workspace's program reads, beyond its command line, to choose what it runs. */
function loadFlags(program: string, args: readonly string[], startDir: string, workspace: string, home: string): string[] {
  const flags: string[] = [];
  for (const a of args) {
    const m = LOADS_FILE.exec(a);
    if (m) flags.push(`${quote(a)} loads ${m[1]!.startsWith('env') ? 'variables' : 'configuration'} from a file, which may choose what the program loads`);
  }
  const name = basename(program).replace(/\.(cmd|exe)$/i, '');
  // node, deno and bun resolve a preloaded module by name from the start folder's node_modules.
  const preloads = ['node', 'deno', 'bun'].includes(name) && args.some((a) => PRELOADS.test(a));
  const files = preloads ? ['node_modules'] : RUNNER_FILES[name];
  if (!files || !isInside(workspace, startDir)) return flags;
  // Looked up as the program looks: from its folder up to the root (a clone opened at a subfolder
  // still has its .npmrc above it), leaving out your home folder's own files.
  for (let dir = startDir; ; dir = dirname(dir)) {
    if (dir !== home) for (const f of files) if (existsSync(join(dir, f))) flags.push(`${name} reads ${quote(join(dir, f))}, a file in the folder it starts in or above it, which may choose what it runs`);
    if (dirname(dir) === dir) break;
  }
  return flags;
}
