// `threadline --help`: the CLI's flags and output are a contract, so their text lives in one place.

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
  threadline rewind [--json]         list the messages of the latest session (or -r ID) with
                                     the files each one's turn changed
  threadline rewind ID --code|--conversation|--both [--dry-run] [--force] [--json]
                                     go back to before message ID: its files (--code), the
                                     conversation (--conversation) or both; --dry-run prints what
                                     would change; a file changed since the agent last left it
                                     is not overwritten without --force (nothing is, then)
  threadline diff [--json]           every file the session changed, against its first snapshot
  threadline compact [--focus TEXT]  summarise the whole conversation of the latest session (or -r ID)
  threadline compact --from ID | --up-to ID [--focus TEXT] [--dry-run]
                                     summarise from message ID on (what is before it stays word
                                     for word), or everything before it; prints the tokens before
                                     and after and the summary; --dry-run applies nothing
  threadline compact --list | --undo ID [--json]
                                     the session's compactions; undo any one of them
  threadline trust [DIR]             trust a folder (default: --cwd): its .claude/settings*.json
                                     and .mcp.json may then grant, and git runs there; remembered
  threadline trust --list [--json]   the folders you trust
  threadline trust --revoke [DIR]    stop trusting a folder
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
  --trust                            trust the folder for this run only (-p, context, mcp)
  -c, --continue                     continue the most recent Threadline session in this folder
  -r, --resume ID                    continue the session with this id: a Threadline session, or a
                                     Claude Code one of this folder, imported as a new Threadline
                                     session (see \`threadline sessions --all\`); with rewind, diff
                                     and compact: the session to work on (default: the latest)
  --mcp-config FILE...               MCP servers from these files or JSON objects ({"mcpServers":
                                     {...}}), besides .mcp.json, .vscode/mcp.json, ~/.claude.json
  --strict-mcp-config                only the servers of --mcp-config
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

Folder trust: a folder you have not trusted (a fresh clone) may restrict but not grant: its
.claude/settings.json and .claude/settings.local.json deny and ask rules apply; their allow
rules and defaultMode acceptEdits do not, its MCP servers (.mcp.json, .vscode/mcp.json, your
~/.claude.json entry for it) do not start, and one line on stderr names what was ignored. No git
runs there (the snapshot reads the branch from .git/HEAD). Trusting a folder does not trust the
folders inside it. In a terminal, -p asks once when the folder's settings would grant something.
A project's MCP server also needs \`threadline mcp approve NAME\` once (a changed definition, or a change to the workspace it runs from, asks again).

Undo: each prompt's file changes are kept (Write, Edit, and what Bash commands changed in the
workspace) beside the session, the newest 100 prompts of each session. A restore never writes
through a symbolic link, and is all or nothing. IDs may be shortened to a unique start.

Exit codes: 0 success, 1 the run failed or was stopped by Ctrl+C (one-line reason on stderr),
2 bad usage, 143 stopped by SIGTERM, 129 by SIGHUP. A stop saves the session and ends every
process the Bash tool started; a second signal exits at once.
`;
