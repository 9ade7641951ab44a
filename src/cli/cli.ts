import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { Permissions } from '../permissions/permissions';
import { formatRules, readClaudeSettings, type RuleSource } from '../permissions/ruleSources';
import { withheldGrants } from '../permissions/projectTrust';
import { createToolRegistry } from '../tools/builtin';
import { ContextService } from '../context/contextService';
import { renderContextReport } from '../context/contextReport';
import { createAgent } from '../agent/createAgent';
import { silentLogger } from '../ports/logger';
import { getDefaultAppState, type AppState } from '../state/appState';
import { RuntimeState } from '../state/runtimeState';
import { createStore } from '../shared/store';
import { printable } from '../base/printable';
import { markPrivate } from '../fs/write';
import { cliSessionsDir, cliStateDir } from '../sessions/paths';
import { knownStateFolders, rememberStateFolder } from '../sessions/stateFolders';
import { SessionStore } from '../sessions/sessionStore';
import { memoryKeyFolder } from '../tools/gitRepo';
import { MemoryDir } from '../memory/memdir';
import type { MemorySetup } from '../memory/memoryWiring';
import { resolveMemoryDir } from '../memory/paths';
import { parseCliArgs, UsageError } from './args';
import { checkDirs, warnUnknownTools } from './flagChecks';
import { stdio, terminalSafeIo, type CliIo } from './io';
import { promptWithStdin, readStdin, type StdinSource } from './stdin';
import { runPrompt } from './runPrompt';
import { cliModelCatalog, windowSource } from './models';
import { DEFAULT_MODEL } from '../api/models';
import { sessionsCommand } from './sessionsCommand';
import { formatServers, mcpCommand } from './mcpCommand';
import { cliMcpServices, firstRequestGate, mcpResultsSource, mcpTrustGrants, readCliMcpConfig, settledMcp, startCliMcp, usage } from './mcpSetup';
import { compactCommand, diffCommand, rewindCommand } from './undoCommands';
import { decideTrust, describeTrust, trustCommand } from './trust';
import { HELP, VERSION } from './help';
import { cliHost } from './host';
import type { Host } from '../ports/host';
import type { ToolRegistry } from '../tools/registry';
import { readDeniedBy } from '../agent/deniedFileResults';

export { HELP, VERSION } from './help';

async function cliMemoryDir(cwd: string, env: NodeJS.ProcessEnv, trusted: boolean) {
  const canonical = await memoryKeyFolder(cwd, trusted);
  return resolveMemoryDir({ setting: env.THREADLINE_MEMORY_DIR, globalStorageDir: cliStateDir(env), canonicalRoot: canonical });
}

async function cliMemorySetup(cwd: string, env: NodeJS.ProcessEnv, io: CliIo, trusted: boolean): Promise<{ memory?: MemorySetup }> {
  if (env.THREADLINE_AUTO_MEMORY === '0') return {};
  const dir = await cliMemoryDir(cwd, env, trusted);
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

/**
 * The CLI reads a folder's instruction files trusted or not (they grant nothing); git runs only
 * in a trusted folder.
 */
function headlessContext(cwd: string, host: Host, reads?: { permissions: Permissions; tools: ToolRegistry }): ContextService {
  return new ContextService({ cwd, host, projectInstructions: () => true, ...(reads ? { readDenied: readDeniedBy(reads.permissions, reads.tools) } : {}) });
}

const ruleWarning = (io: CliIo) => (message: string) => io.err(`threadline: ignoring a permission rule: ${printable(message)}\n`);

/** Claude Code's settings files for this folder, read once for the run. */
function claudeSources(cwd: string, env: NodeJS.ProcessEnv, io: CliIo): RuleSource[] {
  return readClaudeSettings({ cwd, env, warn: ruleWarning(io), ...(env.HOME ? { home: env.HOME } : {}) });
}

/**
 * The permission engine of a CLI run: --allowed-tools, --add-dir and Claude Code's settings files.
 * The folder's own files grant only when it is trusted; the tools themselves are never held back
 * the way VS Code's Restricted Mode does (the flags are the user's own).
 */
function cliPermissions(cwd: string, allowed: string[], addDirs: string[], claude: RuleSource[], env: NodeJS.ProcessEnv, io: CliIo, host: Pick<Host, 'isTrusted'>, extra: RuleSource[] = []): Permissions {
  // Listed where every Threadline looks, so that each denies reads of this one's checkpoint copies.
  void rememberStateFolder(cliStateDir(env), env.HOME || homedir());
  return new Permissions(
    {
      cwd,
      rules: () => ({ allow: allowed, ask: [], deny: [] }),
      rulesLabel: '--allowed-tools',
      trusted: () => host.isTrusted(),
      restrictedMode: () => false,
      headless: true,
      sources: () => [...claude, ...(addDirs.length ? [{ label: '--add-dir', additionalDirectories: addDirs }] : []), ...extra],
      protectedPaths: [cliStateDir(env)],
      stateFolders: () => knownStateFolders(env.HOME || homedir()),
    },
    ruleWarning(io),
  );
}

export interface CliOptions {
  io?: CliIo;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Aborting stops the run the way Stop does in the panel (the CLI wires Ctrl+C to it). */
  signal?: AbortSignal;
  /** Piped input for a prompt run (the process's stdin from main.ts); none when not given. */
  stdin?: StdinSource;
  /** Asks the person at the terminal a yes/no question; given only when stdin and stderr are terminals. */
  confirm?(question: string): Promise<boolean>;
}

export async function runCli(argv: string[], opts: CliOptions = {}): Promise<number> {
  // Every print below goes through this one io, which neutralises terminal escapes.
  const io = opts.io ? terminalSafeIo(opts.io) : stdio;
  const env = opts.env ?? process.env;
  // Sessions, memory, approvals and trust of every project live under it; its folder names come
  // from project paths, so it is closed to other users from the top, not only per project.
  markPrivate(cliStateDir(env));
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
    case 'trust':
      return trustCommand({ ...args, dir: resolve(args.dir) }, env, io);
    case 'context': {
      const cwd = resolve(args.cwd);
      const dirs = checkDirs(args.addDirs, io);
      if (!dirs) return 2;
      const config = await readCliMcpConfig(cwd, args.mcp, env);
      if (config.flagErrors.length) return usage(config.flagErrors, io);
      const claude = claudeSources(cwd, env, io);
      // A preview: never asks, and names what is not applied in its output rather than on stderr.
      const trust = await decideTrust({ cwd, env, flag: args.trust, wouldGrant: [...withheldGrants(claude, false), ...(await mcpTrustGrants(cwd, config, env))], io, notice: false });
      const host = cliHost({ env, io, trusted: trust.trusted, maxTurns: 1 });
      // The servers start and are waited for (each within its connect timeout): their definitions are part of the picture.
      const mcp = await settledMcp(cliMcpServices(cwd, args.mcp, env, VERSION, host, io, config), io);
      const permissions = cliPermissions(cwd, [], dirs, claude, env, io, host);
      const settings = { ...(args.model ? { model: args.model } : {}), ...(args.contextWindow ? { contextWindow: args.contextWindow } : {}) };
      const runtime = new RuntimeState(cwd);
      const store = createStore<AppState>(getDefaultAppState({ sessionId: runtime.sessionId, settings }));
      // As a prompt would: with a key, the Models API (when its cache is missing or stale); the report says where the window is from.
      const models = cliModelCatalog(env, env.ANTHROPIC_API_KEY || undefined);
      const resolved = await models.resolve(args.model ?? DEFAULT_MODEL, settings);
      if (!resolved.ok || resolved.warning) io.err(`threadline: ${resolved.ok ? resolved.warning : resolved.error}\n`);
      const windowFrom = windowSource(models.snapshot(), { setting: Boolean(args.contextWindow), keyed: Boolean(env.ANTHROPIC_API_KEY) });
      const agent = createAgent({
        models,
        store,
        runtime,
        log: silentLogger,
        cwd,
        // A local preview sends nothing: no key.
        host: { ...host, apiKey: async () => undefined },
        tools: createToolRegistry({ searchScope: permissions }).withSource(mcp.tools),
        permissions,
        context: headlessContext(cwd, host, { permissions, tools: createToolRegistry({ searchScope: permissions }) }),
      });
      agent.publishTokens();
      const preview = await agent.previewContext();
      const state = store.getState();
      const rules = permissions.describeRules();
      const modelId = agent.model().id;
      const servers = await mcp.close();
      if (args.json) io.out(`${JSON.stringify({ model: state.model, modelId, tokens: state.tokens, contextWindowFrom: windowFrom, categories: preview.categories, total: preview.total, instructionFiles: preview.instructionFiles, permissions: rules, trust, mcp: servers }, null, 2)}\n`);
      else io.out(`${renderContextReport(modelId === state.model ? state : { ...state, model: `${modelId} (${state.model})` }, preview, windowFrom.text)}\n\n${describeTrust(trust)}\n${formatRules(rules.rules, rules.directories, rules.withheld)}\n\n## MCP servers\n\n${formatServers(servers)}`);
      return 0;
    }
    case 'sessions':
      return sessionsCommand(args, env, io);
    case 'mcp':
      return mcpCommand(args, env, io, VERSION);
    case 'rewind':
    case 'diff':
    case 'compact': {
      const cwd = resolve(args.cwd);
      const claude = claudeSources(cwd, env, io);
      // Only compact sends a request (with the folder's instructions); the others ask nothing.
      const ask = args.command === 'compact' && opts.confirm && env.ANTHROPIC_API_KEY ? { confirm: opts.confirm } : {};
      const trust = await decideTrust({ cwd, env, flag: args.trust, wouldGrant: withheldGrants(claude, false), io, notice: args.command === 'compact', ...ask });
      const host = cliHost({ env, io, trusted: trust.trusted });
      const permissions = cliPermissions(cwd, [], [], claude, env, io, host);
      const ctx = {
        io,
        host,
        deps: { tools: createToolRegistry({ searchScope: permissions }), permissions, context: headlessContext(cwd, host, { permissions, tools: createToolRegistry({ searchScope: permissions }) }), sessions: new SessionStore(cliSessionsDir(cwd, env)), models: cliModelCatalog(env, env.ANTHROPIC_API_KEY || undefined) },
      };
      return args.command === 'rewind' ? rewindCommand(args, ctx) : args.command === 'diff' ? diffCommand(args, ctx) : compactCommand(args, ctx);
    }
    case 'memory': {
      // The folder's memories as a run there sees them: a stranger inside a repository has its own.
      const trust = await decideTrust({ cwd: resolve(args.cwd), env, flag: false, wouldGrant: [], io, notice: false });
      const dir = await cliMemoryDir(resolve(args.cwd), env, trust.trusted);
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
      const config = await readCliMcpConfig(cwd, args.mcp, env);
      if (config.flagErrors.length) return usage(config.flagErrors, io);
      const claude = claudeSources(cwd, env, io);
      // No question when the run cannot go ahead anyway (no key).
      const confirm = opts.confirm && env.ANTHROPIC_API_KEY ? { confirm: opts.confirm } : {};
      // The folder's own MCP servers are grants like its allow rules: the question and the notice name them.
      const trust = await decideTrust({ cwd, env, flag: args.trust, wouldGrant: [...withheldGrants(claude, false), ...(await mcpTrustGrants(cwd, config, env))], io, notice: true, ...confirm });
      // Stopped while the question was on screen: nothing has started yet.
      if (opts.signal?.aborted) {
        io.err('threadline: interrupted\n');
        return 1;
      }
      const host = cliHost({ env, io, trusted: trust.trusted, ...(args.maxTurns !== undefined ? { maxTurns: args.maxTurns } : {}) });
      const mcp = cliMcpServices(cwd, args.mcp, env, VERSION, host, io, config);
      const permissions = cliPermissions(cwd, args.allowedTools, dirs, claude, env, io, host, [mcpResultsSource(mcp)]);
      const tools = createToolRegistry({ searchScope: permissions });
      warnUnknownTools(args.allowedTools, tools, io);
      const gate = firstRequestGate();
      await startCliMcp(mcp, io, gate.after);
      return runPrompt(
        { ...args, cwd, prompt: input.prompt },
        host,
        {
          tools,
          claudeEnv: { HOME: env.HOME, CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR },
          permissions,
          context: headlessContext(cwd, host, { permissions, tools }),
          sessions: new SessionStore(cliSessionsDir(cwd, env)),
          models: cliModelCatalog(env, env.ANTHROPIC_API_KEY || undefined),
          mcp,
          onAnswerStart: gate.open,
          ...(await cliMemorySetup(cwd, env, io, trust.trusted)),
        },
        io,
        opts.signal,
      ).finally(() => mcp.shutdown());
    }
  }
}
