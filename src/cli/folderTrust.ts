// ADAPTER, to be replaced by the trust store when it lands (`threadline trust`, its own --trust):
// the CLI's answer to "may this folder grant things itself" for MCP. Today: --trust on this run,
// or the folder (or a folder above it) listed in $THREADLINE_STATE_DIR/trust.json, read as
// `{ "folders": ["/abs/path", …] }` or a plain list. Everything else is untrusted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FolderTrust } from '../mcp/trust';
import { folderKey } from '../mcp/trust';
import { cliStateDir } from '../sessions/paths';

const MAX_BYTES = 1024 * 1024;

function listedFolders(env: NodeJS.ProcessEnv): string[] {
  try {
    const text = readFileSync(join(cliStateDir(env), 'trust.json'), 'utf8');
    if (text.length > MAX_BYTES) return [];
    const v = JSON.parse(text) as unknown;
    const list = Array.isArray(v) ? v : v && typeof v === 'object' && Array.isArray((v as { folders?: unknown }).folders) ? (v as { folders: unknown[] }).folders : [];
    return list.filter((x): x is string => typeof x === 'string').map(folderKey);
  } catch {
    return [];
  }
}

export function cliFolderTrust(opts: { trustFlag: boolean; env: NodeJS.ProcessEnv }): FolderTrust {
  return {
    isTrusted(folder) {
      if (opts.trustFlag) return true;
      const key = folderKey(folder);
      return listedFolders(opts.env).some((f) => key === f || key.startsWith(f.endsWith('/') ? f : `${f}/`));
    },
  };
}

/** How to trust a folder from the CLI, for messages. */
export const CLI_TRUST_HINT = 'run with --trust, or list the folder in the trust file';
