import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../base/atomicFile';
import { resolveToolPath } from './paths';
import type { Tool } from './types';
import { parseFields } from './util';

interface WriteInput {
  file_path: string;
  content: string;
}

export const writeTool: Tool<WriteInput> = {
  name: 'Write',
  description:
    'Writes a file, creating it (and its folders) or replacing it entirely. Prefer Edit for changing part of an existing file; ' +
    'use Write for new files or full rewrites. Read an existing file before overwriting it. The user may be asked to approve the write.',
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'Path of the file to write' },
      content: { type: 'string', description: 'The complete new content' },
    },
    required: ['file_path', 'content'],
  },
  parse: (input) => parseFields<WriteInput>(input, { file_path: 'string', content: 'string' }),
  isReadOnly: () => false,
  summarize: (i) => `${i.file_path} (${i.content.split('\n').length} lines)`,
  paths: (i, cwd) => [resolveToolPath(cwd, i.file_path)],
  async call(i, { cwd, signal }) {
    const abs = resolveToolPath(cwd, i.file_path);
    if (signal.aborted) return { content: 'Not written: interrupted.', isError: true };
    let existed = true;
    try {
      const st = await fs.stat(abs);
      if (st.isDirectory()) return { content: `${abs} is a directory.`, isError: true };
    } catch {
      existed = false;
    }
    await fs.mkdir(dirname(abs), { recursive: true });
    // Temp file and rename: a crash never leaves a half-written file behind.
    await writeFileAtomic(abs, i.content);
    const lines = i.content.length ? i.content.split('\n').length : 0;
    return { content: `${existed ? 'Overwrote' : 'Created'} ${abs} (${Buffer.byteLength(i.content)} bytes, ${lines} lines).` };
  },
};
