import { dirname } from 'node:path';
import type { PermissionVerdict } from './permissionBroker';
import { isFolderSync } from '../fs/stat';
import { mcpAllowHint } from './mcpRules';
import { ruleForPath, type PathContext } from './pathRules';
import type { Tool } from '../tools/types';

/** Why a call asks, so a headless run can name the exact rule or flag that would allow it. */
export type AskWhy =
  | { kind: 'outside'; path: string; readOnly: boolean }
  | { kind: 'addedFolder'; path: string }
  | { kind: 'protected'; path: string; dir: string }
  | { kind: 'askRule'; rule: { source: string } }
  | { kind: 'bashFile'; path?: string; write: boolean }
  | { kind: 'mcp' }
  | { kind: 'untrusted' }
  | { kind: 'default'; path?: string };

export type Verdict = PermissionVerdict & { why?: AskWhy };

export interface RefusalContext {
  /** Where the engine's own rules come from: "--allowed-tools", "threadline.permissions". */
  label: string;
  headless: boolean;
  paths: PathContext;
}

const isFolder = isFolderSync;

/**
 * `text` as one word a POSIX shell reads back as it is: a flag printed for pasting carries the
 * model's text (`Bash(echo '$(touch x)')`), and in double quotes or none the user's shell would
 * run its `$(…)` (pass 30 F3). Single quotes expand nothing; a `'` is closed, escaped, reopened.
 */
export function shellWord(text: string, always = false): string {
  return !always && /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The denial a call that would ask gets when no one can be asked, naming what would allow it. */
export function refusal(v: Verdict, { tool, command }: { tool: Tool; command: string }, because: string, c: RefusalContext): string {
  const why = v.why;
  // A flag is named as it is typed; a settings list by name.
  const rule = (r: string) => (c.label.startsWith('--') ? `${c.label} ${shellWord(r, true)}` : `the rule ${r} in ${c.label}`);
  const folderOption = (path: string) => {
    const dir = isFolder(path) ? path : dirname(path);
    return c.headless ? `--add-dir ${shellWord(dir)}` : `threadline.additionalDirectories (${dir})`;
  };
  const exactCommand = () => {
    const text = command.trim();
    return text && !text.includes('\n') ? rule(`${tool.name}(${text})`) : rule(`${tool.name}(...)`);
  };
  switch (why?.kind) {
    case 'outside': {
      const r = rule(ruleForPath(why.readOnly ? 'Read' : tool.name, why.path, c.paths));
      if (!why.readOnly) return `${tool.name} of ${why.path} is outside the workspace, and ${because}; allow it with ${r}.`;
      return `${tool.name} of ${why.path} is outside the workspace, and ${because}; allow it with ${folderOption(why.path)} or ${r}.`;
    }
    case 'addedFolder':
      return `${tool.name} of ${why.path} is a write in an added folder, and ${because}; allow it with ${rule(ruleForPath(tool.name, why.path, c.paths))}.`;
    case 'protected':
      return `${tool.name} of ${why.path} is refused: Threadline always asks before writing inside ${why.dir} (whatever the rules say), and ${because}.`;
    case 'askRule':
      return `${v.reason} Ask rules beat allow rules, and ${because}; remove the rule there to let it run.`;
    case 'bashFile': {
      // A read outside is allowed by adding its folder; anything else only by naming the command exactly.
      const ways = why.path && !why.write ? `${folderOption(why.path)} or ${exactCommand()}` : exactCommand();
      return `${v.reason} An allow rule that names a command lets it touch files inside the workspace only, and ${because}; allow it with ${ways}.`;
    }
    case 'untrusted':
      return `${v.reason} Your rules run only programs known to take nothing from an untrusted folder, and ${because}; trust the folder (${c.headless ? 'threadline trust, or --trust for this run' : "VS Code's Workspace Trust"}) to let them run it.`;
    case 'mcp':
      return `${v.reason} It needs permission, and ${because}; ${mcpAllowHint(tool, rule)}.`;
    default: {
      if (tool.traits.runsCommands) return `${v.reason} It needs permission, and ${because}; allow it with ${exactCommand()}.`;
      const exact = rule(why?.path ? ruleForPath(tool.name, why.path, c.paths) : tool.name);
      return `${v.reason} It needs permission, and ${because}; allow it with ${exact} (or ${tool.name} for every file in the workspace).`;
    }
  }
}
