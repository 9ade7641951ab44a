// Checks of the flags against what is there: folders that must exist, tool rules that name a tool.
import { resolve } from 'node:path';
import { isFolderSync } from '../fs/stat';
import type { ToolRegistry } from '../tools/registry';
import type { CliIo } from './io';

/** A rule for a tool Threadline does not have grants nothing; say so rather than let it look granted. */
export function warnUnknownTools(rules: readonly string[], tools: ToolRegistry, io: CliIo): void {
  const names = new Set(tools.tools.map((t) => t.name));
  for (const name of new Set(rules.map((r) => r.replace(/\(.*$/s, '')))) {
    // MCP tools join when their servers are ready, after this check.
    if (!names.has(name) && !name.startsWith('mcp__')) io.err(`threadline: --allowed-tools ${name}: no tool here asks under that name, so the rule does nothing (tools: ${[...names].join(', ')})\n`);
  }
}

/** The --add-dir folders, absolute; a missing one is a usage error. */
export function checkDirs(dirs: string[], io: CliIo): string[] | undefined {
  const out: string[] = [];
  for (const d of dirs) {
    const abs = resolve(d);
    if (!isFolderSync(abs)) {
      io.err(`threadline: --add-dir is not a directory: ${d} (see --help)\n`);
      return undefined;
    }
    out.push(abs);
  }
  return out;
}
