// A server the workspace defines is a grant the workspace makes itself: it starts only in a
// folder the user trusts (the host's answer: VS Code's Workspace Trust, the CLI's trust store),
// and only after the user approved that server once. Approvals live in the user's own state,
// never in the workspace.
import type { WithheldGrant } from '../permissions/projectTrust';
import type { McpServerConfig } from './config/types';
import { needsApproval, needsTrust } from './config/types';
import { readTextFile, updateStateFile } from './files';
import { realLocation } from '../fs/paths';
import { parseJson } from '../fs/jsonText';

export type ApprovalDecision = 'approved' | 'denied';

/** What the user said about one project server of one folder. */
export interface ApprovalStore {
  /**
   * `approved` only for the definition that was approved (`hash`): a changed command asks again.
   * A denial holds for the name, whatever the definition becomes.
   */
  decision(folder: string, server: string, hash: string): Promise<ApprovalDecision | undefined>;
  record(folder: string, server: string, hash: string, decision: ApprovalDecision): Promise<void>;
  /** Forgets the answers for this folder (one server, or all); returns how many were forgotten. */
  reset(folder: string, server?: string): Promise<number>;
}

interface Entry {
  decision: ApprovalDecision;
  hash: string;
  at: string;
}

interface FileShape {
  version: 1;
  folders: Record<string, Record<string, Entry>>;
}

const MAX_BYTES = 4 * 1024 * 1024;

/** The key of a folder: where it really is, so a link to it shares its answers. */
export function folderKey(folder: string): string {
  return realLocation(folder);
}

function parse(text: string | undefined): FileShape {
  if (!text) return { version: 1, folders: {} };
  try {
    const v = parseJson(text) as Partial<FileShape>;
    if (v && typeof v === 'object' && v.folders && typeof v.folders === 'object') return { version: 1, folders: v.folders };
  } catch {
    // A damaged file is read as empty: every project server asks again, which is the safe side.
  }
  return { version: 1, folders: {} };
}

/** Approvals in one JSON file of the user's state (written atomically, under a lock shared by windows and CLI runs). */
export class FileApprovalStore implements ApprovalStore {
  constructor(private readonly file: string) {}

  private async read(): Promise<FileShape> {
    const r = await readTextFile(this.file, MAX_BYTES);
    return parse(r.ok ? r.text : undefined);
  }

  async decision(folder: string, server: string, hash: string): Promise<ApprovalDecision | undefined> {
    const e = (await this.read()).folders[folderKey(folder)]?.[server];
    if (!e) return undefined;
    if (e.decision === 'denied') return 'denied';
    return e.hash === hash ? 'approved' : undefined;
  }

  async record(folder: string, server: string, hash: string, decision: ApprovalDecision): Promise<void> {
    const key = folderKey(folder);
    await updateStateFile(this.file, MAX_BYTES, (text) => {
      const data = parse(text);
      data.folders[key] = { ...data.folders[key], [server]: { decision, hash, at: new Date().toISOString() } };
      return `${JSON.stringify(data, null, 2)}\n`;
    });
  }

  async reset(folder: string, server?: string): Promise<number> {
    const key = folderKey(folder);
    let n = 0;
    await updateStateFile(this.file, MAX_BYTES, (text) => {
      const data = parse(text);
      const entries = data.folders[key] ?? {};
      if (server === undefined) {
        n = Object.keys(entries).length;
        delete data.folders[key];
      } else if (entries[server]) {
        n = 1;
        delete entries[server];
      }
      return `${JSON.stringify(data, null, 2)}\n`;
    });
    return n;
  }
}

/**
 * What trusting the folder would start: each server the folder itself defines (its files, or
 * the user's local entry for it) that is usable and not denied, as the trust question and the
 * untrusted run's notice name it ("from .mcp.json: MCP server db").
 */
export async function serverGrants(servers: readonly McpServerConfig[], approvals: ApprovalStore, folder: string): Promise<WithheldGrant[]> {
  const out: WithheldGrant[] = [];
  for (const c of servers) {
    if (!needsTrust(c.scope) || c.invalid || c.spec.disabled) continue;
    if (needsApproval(c.scope) && (await approvals.decision(folder, c.name, c.hash)) === 'denied') continue;
    out.push({ source: c.source, grant: `MCP server ${c.name}` });
  }
  return out;
}
