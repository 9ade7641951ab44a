import * as vscode from 'vscode';
import type { AttachmentSource } from '../chat/attachments';
import { resolveOpenable } from '../chat/openablePath';
import { readRegularFile } from '../fs/read';

/** The most files the `@` picker lists (the webview filters them as you type). */
const MAX_LISTED = 5000;
/** A file larger than this is refused as an attachment rather than read whole. */
const MAX_FILE_BYTES = 1024 * 1024;

const roots = () => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);

/** The workspace's files for `@` (honouring files.exclude and search.exclude), and their text when sent. */
export function createAttachmentSource(): AttachmentSource {
  return {
    async listFiles() {
      // `null` would drop the user's excludes; undefined applies files.exclude, and search.exclude is honoured by findFiles too.
      const uris = await vscode.workspace.findFiles('**/*', undefined, MAX_LISTED);
      return uris.map((u) => vscode.workspace.asRelativePath(u, false)).sort((a, b) => a.localeCompare(b));
    },
    async readFile(path) {
      const target = await resolveOpenable(roots(), path);
      if (!target.ok) return { ok: false, reason: target.reason };
      const read = await readRegularFile(target.file, MAX_FILE_BYTES);
      if (!read.ok) return { ok: false, reason: read.reason === 'too-large' ? `${path} is larger than ${MAX_FILE_BYTES / 1024} KB` : `${path} cannot be read` };
      const bytes = read.bytes;
      if (bytes.subarray(0, 8192).includes(0)) return { ok: false, reason: `${path} is a binary file` };
      return { ok: true, text: bytes.toString('utf8') };
    },
  };
}
