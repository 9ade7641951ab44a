// Why this file is long: HELP is the CLI's contract (every flag and command, as README shows
// them) and is kept whole here beside the dispatch it documents; the commands themselves live in
// their own files.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Permissions } from '../agent/permissions';
import { formatRules, readClaudeSettings, type RuleSource } from '../agent/ruleSources';
import { createToolRegistry } from '../agent/tools';
import { ContextService } from '../context/contextService';
import { renderContextReport } from '../context/contextReport';
import { createAgent } from '../agent/createAgent';
import { silentLogger } from '../ports/logger';
import { getDefaultAppState, type AppState } from '../state/appState';
import { RuntimeState } from '../state/runtimeState';
import { createStore } from '../shared/store';
import { cliSessionsDir, cliStateDir } from '../sessions/paths';
import type { ToolRegistry } from '../tools/registry';
import { SessionStore } from '../sessions/sessionStore';
import { canonicalRepoRoot } from '../context/git';
import { MemoryDir } from '../memory/memdir';
import type { MemorySetup } from '../memory/memoryWiring';
import { resolveMemoryDir } from '../memory/paths';
import { parseCliArgs, UsageError } from './args';
import { stdio, type CliIo } from './io';
import { promptWithStdin, readStdin, type StdinSource } from './stdin';
import { runPrompt } from './runPrompt';
import { cliModelCatalog } from './models';
import { DEFAULT_MODEL } from '../api/models';
import { sessionsCommand } from './sessionsCommand';
import { formatServers, mcpCommand } from './mcpCommand';
import { cliMcpServices, firstRequestGate, mcpFlagErrors, mcpResultsSource, settledMcp, startCliMcp, usage } from './mcpSetup';

declare const __THREADLINE_VERSION__: string | undefined;

export const VERSION = typeof __THREADLINE_VERSION__ === 'string' ? __THREADLINE_VERSION__ : '0.0.0-dev';

export const HELP = `threadline ${VERSION} — a coding agent that keeps the thread through long sessions

Usage:
  threadline -p PROMPT [options]     answer one prompt and exit
  threadline context [--json]        show what a request would hold, and the window's thresholds
  threadline sessions [--all] [--json]
                                     list this folder's saved sessions, newest first;
                                     --all adds this folder's Claude Code sessions, marked
  threadline memory [list|show NAME|rm NAME] [--json]
                                     what Threadline remembers for this repository
  threadline mcp [list|approve NAME|deny NAME|reset [NAME]] [--json]
                                     MCP servers: each one's state, tools and tokens (list
                                     starts them and waits); answer a project server's request
                                     to start; forget those answers
  threadline --version               print the version
  threadline --help                  print this help

Options:
  -p, --print PROMPT                 the prompt (or give it as the remaining arguments); input
                                     piped on stdin is added after it, or is the prompt when -p
                                     stands alone: git diff | threadline -p "write a commit message"
  --cwd DIR                          the workspace folder (default: the current directory)
  --model NAME                       sonnet, opus, haiku (the newest of that line) or a model id
                                     (default: sonnet)
  --context-window N                 context window in tokens (at least 8192), overriding the model's
  --max-turns N                      most model turns for the answer (default: no limit)
  --allowed-tools RULE...            tools that run without asking, e.g. Edit "Bash(npm test:*)":
                                     several values, comma lists or the flag repeated; the list
                                     runs to the next flag or --. Also spelled --allowedTools.
                                     Read-only tools inside --cwd always run; anything else that
                                     would ask is denied, and the denial is reported
  --add-dir DIR...                   folders outside --cwd where reads run too (several values
                                     or the flag repeated); writes there need an --allowed-tools rule
  -c, --continue                     continue the most recent Threadline session in this folder
  -r, --resume ID                    continue the session with this id: a Threadline session, or a
                                     Claude Code one of this folder, imported as a new Threadline
                                     session (see \`threadline sessions --all\`)
  --mcp-config FILE...               MCP servers from these files or JSON objects ({"mcpServers":
                                     {...}}), besides .mcp.json, .vscode/mcp.json, ~/.claude.json
  --strict-mcp-config                only the servers of --mcp-config
  --trust                            this folder's own MCP servers (.mcp.json, .vscode/mcp.json,
                                     your ~/.claude.json entry for it) may start; project ones
                                     still need \`threadline mcp approve NAME\` once
  --output-format text|json|stream-json
                                     text: the final answer; json: one result object;
                                     stream-json: one JSON event per line, ending in the result

Environment:
  ANTHROPIC_API_KEY                  the API key (required for -p)
  ANTHROPIC_BASE_URL                 a proxy or Anthropic-compatible server
  THREADLINE_STATE_DIR               where sessions and memory are kept (default: ~/.local/state/threadline)
  THREADLINE_MEMORY_DIR              a memory folder of your own (absolute path)
  THREADLINE_AUTO_MEMORY=0           do not extract or use memories
  CLAUDE_CONFIG_DIR                  where Claude Code keeps its sessions (default: ~/.claude)
  MAX_MCP_OUTPUT_TOKENS              cap on one MCP tool result (default 25000); more goes to a file
  MCP_TIMEOUT, MCP_TOOL_TIMEOUT      an MCP server's start and one call, in ms (30000, 600000)

Exit codes: 0 success, 1 the run failed or was stopped by Ctrl+C (one-line reason on stderr),
2 bad usage, 143 stopped by SIGTERM, 129 by SIGHUP. A stop saves the session and ends every
process the Bash tool started; a second signal exits at once.
`;

async function cliMemoryDir(cwd: string, env: NodeJS.ProcessEnv) {
  const canonical = (await canonicalRepoRoot(cwd, 1500)) ?? cwd;
  return resolveMemoryDir({ setting: env.THREADLINE_MEMORY_DIR, globalStorageDir: cliStateDir(env), canonicalRoot: canonical });
}

async function cliMemorySetup(cwd: string, env: NodeJS.ProcessEnv, io: CliIo): Promise<{ memory?: MemorySetup }> {
  if (env.THREADLINE_AUTO_MEMORY === '0') return {};
  const dir = await cliMemoryDir(cwd, env);
  if (!dir.ok) {
    io.err(`threadline: auto memory is off: ${dir.reason}\n`);
    return {};
  }
  return {
    memory: {
      dir: dir.dir,
      enabled: () => true,
      onSaved: (names) => io.err(`threadline: saved to memory: ${names.join(', ')}\n`),
    },
  };
}

function headlessContext(cwd: string, io: CliIo): ContextService {
  return new ContextService({
    cwd,
    trusted: () => true,
    approveExternal: async (path, from) => {
      io.err(`threadline: skipped ${path}, included by ${from}: it is outside the project and a headless run cannot ask (approve it once in VS Code)\n`);
      return false;
    },
  });
}

/** A rule for a tool Threadline does not have grants nothing; say so rather than let it look granted. */
function warnUnknownTools(rules: readonly string[], tools: ToolRegistry, io: CliIo): void {
  const names = new Set(tools.tools.map((t) => t.name));
  for (const name of new Set(rules.map((r) => r.replace(/\(.*$/s, '')))) {
    // MCP tools join when their servers are ready, after this check.
    if (!names.has(name) && !name.startsWith('mcp__')) io.err(`threadline: --allowed-tools ${name}: no tool here asks under that name, so the rule does nothing (tools: ${[...names].join(', ')})\n`);
  }
}

/**
 * The permission engine of a CLI run: --allowed-tools, --add-dir and Claude Code's settings files
 * (this is the user's own folder, so its project settings apply, as they do for the reference).
 */
function cliPermissions(cwd: string, allowed: string[], addDirs: string[], env: NodeJS.ProcessEnv, io: CliIo, extra: RuleSource[] = []): Permissions {
  let claude: RuleSource[] | undefined;
  const warn = (message: string) => io.err(`threadline: ignoring a permission rule: ${message}\n`);
  return new Permissions(
    {
      cwd,
      rules: () => ({ allow: allowed, ask: [], deny: [] }),
      rulesLabel: '--allowed-tools',
      trusted: () => true,
      headless: true,
      sources: () => [...(claude ??= readClaudeSettings({ cwd, env, warn, ...(env.HOME ? { home: env.HOME } : {}) })), ...(addDirs.length ? [{ label: '--add-dir', additionalDirectories: addDirs }] : []), ...extra],
      protectedPaths: [cliStateDir(env)],
    },
    warn,
  );
}

/** The --add-dir folders, absolute; a missing one is a usage error. */
function checkDirs(dirs: string[], io: CliIo): string[] | undefined {
  const out: string[] = [];
  for (const d of dirs) {
    const abs = resolve(d);
    let ok: boolean;
    try {
      ok = statSync(abs).isDirectory();
    } catch {
      ok = false;
    }
    if (!ok) {
      io.err(`threadline: --add-dir is not a directory: ${d} (see --help)\n`);
      return undefined;
    }
    out.push(abs);
  }
  return out;
}

export interface CliOptions {
  io?: CliIo;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Aborting stops the run the way Stop does in the panel (the CLI wires Ctrl+C to it). */
  signal?: AbortSignal;
  /** Piped input for a prompt run (the process's stdin from main.ts); none when not given. */
  stdin?: StdinSource;
}

export async function runCli(argv: string[], opts: CliOptions = {}): Promise<number> {
  const io = opts.io ?? stdio;
  const env = opts.env ?? process.env;
  let args;
  try {
    args = parseCliArgs(argv, opts.cwd ?? process.cwd());
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`threadline: ${err.message} (see --help)\n`);
      return 2;
    }
    throw err;
  }
  switch (args.command) {
    case 'version':
      io.out(`${VERSION}\n`);
      return 0;
    case 'help':
      io.out(HELP);
      return 0;
    case 'context': {
      const cwd = resolve(args.cwd);
      const dirs = checkDirs(args.addDirs, io);
      if (!dirs) return 2;
      const flagErrors = await mcpFlagErrors(cwd, args.mcp);
      if (flagErrors.length) return usage(flagErrors, io);
      // The servers start and are waited for (each within its connect timeout): their definitions are part of the picture.
      const mcp = await settledMcp(cliMcpServices(cwd, args.mcp, env, VERSION, io), io);
      const permissions = cliPermissions(cwd, [], dirs, env, io);
      const settings = { ...(args.model ? { model: args.model } : {}), ...(args.contextWindow ? { contextWindow: args.contextWindow } : {}) };
      const runtime = new RuntimeState(cwd);
      const store = createStore<AppState>(getDefaultAppState({ sessionId: runtime.sessionId, settings }));
      // A local preview: the cached model list or the table, never the network, never refused.
      const models = cliModelCatalog(env, undefined);
      const resolved = await models.resolve(args.model ?? DEFAULT_MODEL, settings);
      if (!resolved.ok || resolved.warning) io.err(`threadline: ${resolved.ok ? resolved.warning : resolved.error}\n`);
      const agent = createAgent({
        models,
        store,
        runtime,
        log: silentLogger,
        cwd,
        tools: createToolRegistry({ searchScope: permissions }).withSource(mcp.tools),
        permissions,
        apiKey: async () => undefined,
        baseUrl: () => '',
        maxTurns: () => 1,
        context: headlessContext(cwd, io),
      });
      agent.publishTokens();
      const preview = await agent.previewContext();
      const state = store.getState();
      const rules = permissions.describeRules();
      const modelId = agent.model().id;
      const servers = await mcp.close();
      if (args.json) io.out(`${JSON.stringify({ model: state.model, modelId, tokens: state.tokens, categories: preview.categories, total: preview.total, instructionFiles: preview.instructionFiles, permissions: rules, mcp: servers }, null, 2)}\n`);
      else io.out(`${renderContextReport(modelId === state.model ? state : { ...state, model: `${modelId} (${state.model})` }, preview)}\n\n${formatRules(rules.rules, rules.directories)}\n\n## MCP servers\n\n${formatServers(servers)}`);
      return 0;
    }
    case 'sessions':
      return sessionsCommand(args, env, io);
    case 'mcp':
      return mcpCommand(args, env, io, VERSION);
    case 'memory': {
      const dir = await cliMemoryDir(resolve(args.cwd), env);
      if (!dir.ok) {
        io.err(`threadline: ${dir.reason}\n`);
        return 1;
      }
      const memdir = new MemoryDir(dir.dir);
      if (args.action === 'list') {
        const { valid, invalid } = await memdir.list();
        if (args.json) io.out(`${JSON.stringify({ dir: dir.dir, memories: valid, invalid }, null, 2)}\n`);
        else {
          if (!valid.length && !invalid.length) io.out(`No memories yet (${dir.dir}).\n`);
          for (const m of valid) io.out(`${m.type.padEnd(9)} ${m.name}  ${m.description}\n`);
          for (const m of invalid) io.out(`invalid   ${m.file}  ${m.reason}\n`);
        }
        return 0;
      }
      let got;
      try {
        got = await memdir.get(args.name!);
      } catch (err) {
        io.err(`threadline: ${err instanceof Error ? err.message : String(err)}\n`);
        return 2;
      }
      if (!got) {
        io.err(`threadline: no memory named ${args.name}\n`);
        return 1;
      }
      if (args.action === 'rm') {
        await memdir.remove(args.name!);
        io.out(`Removed ${args.name}.\n`);
        return 0;
      }
      if (args.json) io.out(`${JSON.stringify(got, null, 2)}\n`);
      else if ('body' in got) io.out(`# ${got.name} (${got.type})\n${got.description}\n\n${got.body}\n`);
      else io.out(`${got.file} is invalid: ${got.reason}\n`);
      return 0;
    }
    case 'prompt': {
      const cwd = resolve(args.cwd);
      const dirs = checkDirs(args.addDirs, io);
      if (!dirs) return 2;
      // After the flags' own checks, so a usage error is not held up by a silent pipe.
      const input = promptWithStdin(args.prompt, await readStdin(opts.stdin));
      if (!input.ok) {
        io.err(`threadline: ${input.error} (see --help)\n`);
        return 2;
      }
      if (input.warning) io.err(`threadline: ${input.warning}\n`);
      const flagErrors = await mcpFlagErrors(cwd, args.mcp);
      if (flagErrors.length) return usage(flagErrors, io);
      const mcp = cliMcpServices(cwd, args.mcp, env, VERSION, io);
      const permissions = cliPermissions(cwd, args.allowedTools, dirs, env, io, [mcpResultsSource(mcp)]);
      const tools = createToolRegistry({ searchScope: permissions });
      warnUnknownTools(args.allowedTools, tools, io);
      const gate = firstRequestGate();
      await startCliMcp(mcp, io, gate.after);
      return runPrompt(
        { ...args, cwd, prompt: input.prompt },
        { apiKey: env.ANTHROPIC_API_KEY || undefined, baseUrl: env.ANTHROPIC_BASE_URL || undefined },
        {
          tools,
          claudeEnv: { HOME: env.HOME, CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR },
          permissions,
          context: headlessContext(cwd, io),
          sessions: new SessionStore(cliSessionsDir(cwd, env)),
          models: cliModelCatalog(env, env.ANTHROPIC_API_KEY || undefined),
          mcp,
          onAnswerStart: gate.open,
          ...(await cliMemorySetup(cwd, env, io)),
        },
        io,
        opts.signal,
      ).finally(() => mcp.shutdown());
    }
  }
}
