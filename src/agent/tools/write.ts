import { promises as fs } from 'node:fs';
import { resolveToolPath } from '../../tools/paths';
import type { Tool } from '../../tools/types';
import { z } from 'zod';
import { parseToolInput, pathField, toInputSchema } from '../../tools/schema';
import { countLines, errorMessage, INTERRUPTED, writeAtomic } from './util';

const writeInput = z.object({
  file_path: pathField('The file to write, absolute or relative to the workspace'),
  content: z.string().describe('The complete content of the file'),
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
    let existed = false;
    try {
      const st = await fs.stat(abs);
      if (st.isDirectory()) return { content: `${abs} is a folder; give the path of a file.`, isError: true };
      // Replacing a FIFO or a device with a file is never what was meant (and /dev as root).
      if (!st.isFile()) return { content: `${abs} is not a regular file (a FIFO, socket or device); Write only replaces regular files.`, isError: true };
      existed = true;
    } catch {
      // a new file
    }
    try {
      await writeAtomic(abs, i.content);
    } catch (err) {
      return { content: `Could not write ${abs}: ${errorMessage(err)}.`, isError: true };
    }
    const bytes = Buffer.byteLength(i.content, 'utf8');
    return { content: `${existed ? 'Overwrote' : 'Created'} ${abs}: ${bytes} bytes, ${countLines(i.content)} lines.` };
  },
};
