// Where servers are read from, and which entry wins a name. As in Claude Code, an entry is taken
// whole from the most specific place that has the name: the command line, then the user's own
// entry for this project, then the project's files, then the user's settings; except that a
// project file never takes the name of one of the user's own servers (pickWinners).
import { isAbsolute, join, resolve } from 'node:path';
import { readTextFile } from '../files';
import { normalizeName, serverNamesClash } from '../names';
import { parseServerEntry } from './parse';
import type { McpConfigProblem, McpConfigSet, McpScope, McpServerConfig } from './types';
import { isInside, realLocation } from '../../fs/paths';
import { parseJsonText } from '../../fs/jsonText';

/** Settings files are small; ~/.claude.json also keeps Claude Code's history, and can be large. */
const MAX_CONFIG_BYTES = 1024 * 1024;
const MAX_CLAUDE_JSON_BYTES = 64 * 1024 * 1024;

/** A VS Code `inputs` entry: what to ask for, and whether the answer is a secret. */
export interface McpInputSpec {
  id: string;
  description: string;
  password: boolean;
}

export interface McpSourceOptions {
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** `--mcp-config` values in the order given: files (relative to `cwd`) or inline JSON. */
  flagConfigs?: readonly string[];
  /** `--strict-mcp-config`: the flag's servers only. */
  strict?: boolean;
  /** Threadline's own user setting (`threadline.mcpServers`), in Claude Code's form. */
  userSetting?: unknown;
  userSettingLabel?: string;
}

export interface McpConfigResult extends McpConfigSet {
  /** `inputs` of .vscode/mcp.json, by id. */
  inputs: Map<string, McpInputSpec>;
  /** Problems with a file named on the command line: the CLI stops on these (it cannot guess what was meant). */
  flagErrors: string[];
}

interface Found {
  scope: McpScope;
  source: string;
  entries: Record<string, unknown>;
}

type JsonRead = { ok: true; value: unknown } | { ok: false; missing: boolean; message: string };

async function readJson(path: string, maxBytes: number, jsonc: boolean): Promise<JsonRead> {
  const r = await readTextFile(path, maxBytes);
  if (!r.ok) return { ok: false, missing: r.missing, message: r.reason };
  return parseJson(r.text, jsonc);
}

/**
 * A workspace's own file, read only where it really lies in the workspace: a `.mcp.json` linked
 * to a file elsewhere would have the user's files read as the clone's configuration.
 */
async function readWorkspaceJson(cwd: string, path: string, jsonc: boolean): Promise<JsonRead> {
  if (!isInside(cwd, path)) return { ok: false, missing: false, message: 'not read: it is a link to a file outside the workspace' };
  return readJson(path, MAX_CONFIG_BYTES, jsonc);
}

function parseJson(text: string, jsonc: boolean): JsonRead {
  const r = parseJsonText(text, { comments: jsonc });
  return r.ok ? r : { ok: false, missing: false, message: r.message };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The server map under `key`, or a problem when it is there but not an object. */
function serversUnder(value: unknown, keys: readonly string[], source: string, problems: McpConfigProblem[]): Record<string, unknown> | undefined {
  if (!isRecord(value)) {
    problems.push({ source, message: 'is not a JSON object' });
    return undefined;
  }
  for (const key of keys) {
    const v = value[key];
    if (v === undefined) continue;
    if (!isRecord(v)) {
      problems.push({ source, message: `"${key}" is not an object of servers` });
      return undefined;
    }
    return v;
  }
  return undefined;
}

/** The Claude Code user config: `$CLAUDE_CONFIG_DIR/.claude.json` or `~/.claude.json`. */
function claudeJsonPath(home: string, env: NodeJS.ProcessEnv): { path: string; label: string } {
  const dir = env.CLAUDE_CONFIG_DIR;
  if (dir && isAbsolute(dir)) return { path: join(dir, '.claude.json'), label: join(dir, '.claude.json') };
  return { path: join(home, '.claude.json'), label: '~/.claude.json' };
}

async function readFlagConfigs(opts: McpSourceOptions, found: Found[], flagErrors: string[]): Promise<void> {
  for (const [i, value] of (opts.flagConfigs ?? []).entries()) {
    const inline = value.trim().startsWith('{');
    const source = inline ? `--mcp-config (inline JSON ${i + 1})` : `--mcp-config ${value}`;
    const r = inline ? parseJson(value, false) : await readJson(resolve(opts.cwd, value), MAX_CONFIG_BYTES, false);
    if (!r.ok) {
      flagErrors.push(`${source}: ${r.missing ? 'no such file' : r.message}`);
      continue;
    }
    const problems: McpConfigProblem[] = [];
    const entries = serversUnder(r.value, ['mcpServers', 'servers'], source, problems);
    for (const p of problems) flagErrors.push(`${p.source}: ${p.message}`);
    if (!entries && !problems.length) flagErrors.push(`${source}: it has no "mcpServers" object`);
    // Later files win a name over earlier ones, as a later flag does.
    if (entries) found.unshift({ scope: 'flag', source, entries });
  }
}

/** Reads every place servers are defined and keeps, for each name, the entry that wins. */
export async function readMcpConfig(opts: McpSourceOptions): Promise<McpConfigResult> {
  const problems: McpConfigProblem[] = [];
  const flagErrors: string[] = [];
  const inputs = new Map<string, McpInputSpec>();
  const found: Found[] = [];
  await readFlagConfigs(opts, found, flagErrors);
  if (!opts.strict) {
    const claude = claudeJsonPath(opts.home, opts.env);
    const [claudeJson, mcpJson, vscodeJson] = await Promise.all([
      readJson(claude.path, MAX_CLAUDE_JSON_BYTES, false),
      readWorkspaceJson(opts.cwd, join(opts.cwd, '.mcp.json'), false),
      readWorkspaceJson(opts.cwd, join(opts.cwd, '.vscode', 'mcp.json'), true),
    ]);
    const report = (source: string, r: JsonRead) => {
      if (!r.ok && !r.missing) problems.push({ source, message: r.message });
    };
    report(claude.label, claudeJson);
    report('.mcp.json', mcpJson);
    report('.vscode/mcp.json', vscodeJson);
    // The user's own entries for this folder (Claude Code's "local" scope), keyed by its path.
    if (claudeJson.ok && isRecord(claudeJson.value) && isRecord(claudeJson.value.projects)) {
      const projects = claudeJson.value.projects;
      const key = [opts.cwd, realLocation(opts.cwd)].find((k) => isRecord(projects[k]));
      if (key) {
        const local = serversUnder(projects[key], ['mcpServers'], `${claude.label} (this project)`, problems);
        if (local) found.push({ scope: 'local', source: `${claude.label} (this project)`, entries: local });
      }
    }
    if (mcpJson.ok) {
      const e = serversUnder(mcpJson.value, ['mcpServers'], '.mcp.json', problems);
      if (e) found.push({ scope: 'project', source: '.mcp.json', entries: e });
    }
    if (vscodeJson.ok) {
      const e = serversUnder(vscodeJson.value, ['servers'], '.vscode/mcp.json', problems);
      if (e) found.push({ scope: 'project', source: '.vscode/mcp.json', entries: e });
      collectInputs(vscodeJson.value, inputs, problems);
    }
    if (opts.userSetting !== undefined && opts.userSetting !== null) {
      const label = opts.userSettingLabel ?? 'threadline.mcpServers';
      if (isRecord(opts.userSetting)) found.push({ scope: 'user', source: label, entries: opts.userSetting });
      else problems.push({ source: label, message: 'is not an object of servers' });
    }
    if (claudeJson.ok) {
      const e = serversUnder(claudeJson.value, ['mcpServers'], claude.label, problems);
      if (e) found.push({ scope: 'user', source: claude.label, entries: e });
    }
  }
  return { ...pickWinners(found, problems), inputs, flagErrors };
}

function collectInputs(value: unknown, inputs: Map<string, McpInputSpec>, problems: McpConfigProblem[]): void {
  if (!isRecord(value) || value.inputs === undefined) return;
  if (!Array.isArray(value.inputs)) {
    problems.push({ source: '.vscode/mcp.json', message: '"inputs" is not a list' });
    return;
  }
  for (const i of value.inputs) {
    if (!isRecord(i) || typeof i.id !== 'string') continue;
    inputs.set(i.id, { id: i.id, description: typeof i.description === 'string' ? i.description : i.id, password: i.password === true });
  }
}

/**
 * `found` is in precedence order: the first entry of a name wins, whole; the later ones are noted
 * as shadowed. Names are compared as tools and rules see them (serverNamesClash): `my.db` and
 * `my_db` are one name, and the later of two such entries is not used.
 */
/**
 * Far beyond any real setup. Each name is checked against every kept one (names clash by prefix,
 * so no map answers it), and a clone's 1 MB .mcp.json of 44,000 servers held every start for 75 s
 * (pass 38 C5).
 */
const MAX_SERVERS_PER_FILE = 200;

function pickWinners(found: readonly Found[], problems: McpConfigProblem[]): McpConfigSet {
  const servers: McpServerConfig[] = [];
  // A workspace file does not take a name the user's own settings give a server: it would run in
  // place of theirs (and under their mcp__name rules) while the approval names only the project's command.
  const userOwned: Array<{ name: string; source: string }> = [];
  for (const f of found) if (f.scope === 'user') for (const name of Object.keys(f.entries)) userOwned.push({ name, source: f.source });
  for (const f of found) {
    const entries = Object.entries(f.entries);
    if (entries.length > MAX_SERVERS_PER_FILE) problems.push({ source: f.source, message: `${entries.length - MAX_SERVERS_PER_FILE} servers after the first ${MAX_SERVERS_PER_FILE} are ignored` });
    for (const [name, raw] of entries.slice(0, MAX_SERVERS_PER_FILE)) {
      const won = servers.find((s) => serverNamesClash(s.name, name));
      const mine = f.scope === 'project' && !won ? userOwned.find((u) => serverNamesClash(u.name, name)) : undefined;
      if (mine) {
        const same = mine.name === name ? 'of that name' : `"${mine.name}", whose tools and rules are named alike`;
        problems.push({ source: f.source, message: `server "${name}" is not used: your own server ${same} (${mine.source}) is kept; rename one of them to use both` });
        continue;
      }
      if (won && won.name === name) {
        won.shadows.push(f.source);
        continue;
      }
      if (won) {
        problems.push({ source: f.source, message: `server "${name}" is not used: its tools and rules would be named as those of "${won.name}" (${won.source}, mcp__${normalizeName(won.name)}__…); rename one of them to use both` });
        continue;
      }
      const parsed = parseServerEntry(name, raw);
      if (!parsed.ok) {
        // A broken entry still takes its name: silently running another server of that name instead would surprise more.
        servers.push({ name, scope: f.scope, source: f.source, spec: { transport: 'stdio' }, hash: '', shadows: [], invalid: parsed.error });
        continue;
      }
      for (const w of parsed.warnings) problems.push({ source: f.source, message: w });
      servers.push({ name, scope: f.scope, source: f.source, spec: parsed.spec, hash: parsed.hash, shadows: [] });
    }
  }
  return { servers, problems };
}
