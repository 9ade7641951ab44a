import { readRegularFile } from '../../fs/read';
import { inspect } from '../../fs/stat';
import { resolveToolPath } from '../paths';
import type { Tool } from '../types';
import { z } from 'zod';
import { fileText, parseToolInput, pathField, toInputSchema } from '../schema';
import { describeText, encodeText, hasNonAscii, withLineEnds } from './encoding';
import { EDIT_MAX_BYTES } from './edit';
import { countLines, errorMessage, INTERRUPTED, writeAtomic } from './util';

/**
 * What Write stores for `content` over an existing file: the file's encoding, byte order mark and
 * line ends kept, so replacing a file changes only its text. A file that is not UTF-8 (Latin-1,
 * say) is refused non-ASCII text, which could only be written in another encoding than its own.
 */
async function storedForm(abs: string, content: string): Promise<{ ok: true; bytes: Buffer | string; kept: string[] } | { ok: false; message: string }> {
  const old = await readRegularFile(abs, EDIT_MAX_BYTES);
  // Too big to look at whole (or gone): written as given.
  if (!old.ok) return { ok: true, bytes: content, kept: [] };
  const form = describeText(old.bytes);
  if (form.encoding === 'utf8' && !form.valid && hasNonAscii(content)) {
    return {
      ok: false,
      message:
        `${abs} is not UTF-8 text (it has bytes that are not valid UTF-8, as Latin-1 or Windows-1252 files do), and the new content has non-ASCII characters` +
        `${content.includes('\uFFFD') ? ' (\uFFFD, which is how Read shows the bytes it cannot decode: writing it would destroy them)' : ''}. ` +
        `Change the file with Edit, using ASCII-only old_string and new_string, or with a command that knows its encoding.`,
    };
  }
  const text = withLineEnds(content, form);
  const kept = [...(form.encoding !== 'utf8' ? [`its ${form.encoding === 'utf16le' ? 'UTF-16LE' : 'UTF-16BE'} encoding`] : form.bom ? ['its byte order mark'] : []), ...(text !== content ? ['its CRLF line ends'] : [])];
  return { ok: true, bytes: encodeText(text, form), kept };
}

const writeInput = z.object({
  file_path: pathField('The file to write, absolute or relative to the workspace'),
  content: fileText('The complete content of the file'),
});
type WriteInput = z.output<typeof writeInput>;

export const writeTool: Tool<WriteInput> = {
  name: 'Write',
  description: [
    'Write a whole file: create it, with any missing parent folders, or replace everything in it.',
    'file_path may be absolute or relative to the workspace; content is the complete new text.',
    'To change part of an existing file use Edit instead, which is safer and cheaper. Read an existing file before overwriting it.',
    'The write is atomic (nobody sees a half-written file). The user may be asked to approve it.',
  ].join(' '),
  inputSchema: toInputSchema(writeInput),
  traits: { writesFiles: true, compactable: true, background: 'write' },
  parse: (input) => parseToolInput(writeInput, input),
  isReadOnly: () => false,
  summarize: (i) => `${i.file_path} (${countLines(i.content)} lines)`,
  paths: (i, cwd) => [resolveToolPath(cwd, i.file_path)],
  async call(i, { cwd, signal }) {
    if (signal.aborted) return INTERRUPTED;
    const abs = resolveToolPath(cwd, i.file_path);
    const info = await inspect(abs);
    if (info.kind === 'folder') return { content: `${abs} is a folder; give the path of a file.`, isError: true };
    // Replacing a FIFO or a device with a file is never what was meant (and /dev as root).
    if (info.kind === 'other') return { content: `${abs} is not a regular file (a FIFO, socket or device); Write only replaces regular files.`, isError: true };
    const existed = info.kind === 'file';
    const stored = existed ? await storedForm(abs, i.content) : { ok: true as const, bytes: i.content, kept: [] };
    if (!stored.ok) return { content: stored.message, isError: true };
    try {
      await writeAtomic(abs, stored.bytes);
    } catch (err) {
      return { content: `Could not write ${abs}: ${errorMessage(err)}.`, isError: true };
    }
    const bytes = typeof stored.bytes === 'string' ? Buffer.byteLength(stored.bytes, 'utf8') : stored.bytes.length;
    const kept = stored.kept.length ? ` (kept ${stored.kept.join(' and ')})` : '';
    return { content: `${existed ? 'Overwrote' : 'Created'} ${abs}: ${bytes} bytes, ${countLines(i.content)} lines${kept}.` };
  },
};
