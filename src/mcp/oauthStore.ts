// Where the CLI keeps what signing in to remote MCP servers saved (tokens, client registration):
// one private file (mode 0600) in the user's state folder, by folder and server. The extension
// keeps the same in VS Code's SecretStorage instead.
import type { McpOAuthState } from './connection';
import { readTextFile, updateStateFile } from './files';
import { folderKey } from './trust';
import { parseJson } from '../fs/jsonText';

const MAX_BYTES = 4 * 1024 * 1024;

type Shape = Record<string, Record<string, McpOAuthState>>;

function parse(text: string | undefined): Shape {
  try {
    const v = text ? (parseJson(text) as unknown) : {};
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Shape) : {};
  } catch {
    return {};
  }
}

export class FileOAuthStore {
  constructor(
    private readonly file: string,
    private readonly folder: string,
  ) {}

  async load(server: string): Promise<McpOAuthState | undefined> {
    const r = await readTextFile(this.file, MAX_BYTES);
    return parse(r.ok ? r.text : undefined)[folderKey(this.folder)]?.[server];
  }

  async save(server: string, state: McpOAuthState): Promise<void> {
    const key = folderKey(this.folder);
    await updateStateFile(this.file, MAX_BYTES, (text) => {
      const all = parse(text);
      all[key] = { ...all[key], [server]: state };
      return `${JSON.stringify(all, null, 2)}\n`;
    });
  }
}
