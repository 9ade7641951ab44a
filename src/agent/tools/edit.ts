import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../base/atomicFile';
import { resolveToolPath } from './paths';
import type { Tool } from './types';
import { parseFields } from './util';

interface EditInput {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

function snippet(text: string, index: number, length: number): string {
  const lines = text.split('\n');
  const startLine = text.slice(0, index).split('\n').length - 1;
  const endLine = text.slice(0, index + length).split('\n').length - 1;
  const from = Math.max(0, startLine - 3);
  const to = Math.min(lines.length, endLine + 4);
  return lines
    .slice(from, to)
    .map((l, k) => `${String(from + k + 1).padStart(6)}\t${l}`)
    .join('\n');
}

export const editTool: Tool<EditInput> = {
  name: 'Edit',
  description:
    'Replaces exact text in a file. `old_string` must match the file exactly (whitespace included) and, unless `replace_all` is true, exactly once: ' +
    'add surrounding lines to make it unique. Read the file first. An empty `old_string` creates a new file with `new_string` as its content. The user may be asked to approve the edit.',
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'Path of the file to edit' },
      old_string: { type: 'string', description: 'The exact text to replace' },
      new_string: { type: 'string', description: 'The text to put in its place' },
      replace_all: { type: 'boolean', description: 'Replace every occurrence (default false)' },
    },
    required: ['file_path', 'old_string', 'new_string'],
  },
  parse: (input) => parseFields<EditInput>(input, { file_path: 'string', old_string: 'string', new_string: 'string' }, { replace_all: 'boolean' }),
  isReadOnly: () => false,
  summarize: (i) => i.file_path,
  paths: (i, cwd) => [resolveToolPath(cwd, i.file_path)],
  async call(i, { cwd, signal }) {
    const abs = resolveToolPath(cwd, i.file_path);
    if (i.old_string === i.new_string) return { content: 'old_string and new_string are the same; nothing to change.', isError: true };
    let text: string;
    try {
      text = await fs.readFile(abs, 'utf8');
    } catch {
      if (i.old_string === '') {
        await fs.mkdir(dirname(abs), { recursive: true });
        await writeFileAtomic(abs, i.new_string);
        return { content: `Created ${abs}.` };
      }
      return { content: `File not found: ${abs}`, isError: true };
    }
    if (i.old_string === '') return { content: `${abs} already exists; give the text to replace in old_string.`, isError: true };
    const n = countOccurrences(text, i.old_string);
    if (n === 0) return { content: `old_string was not found in ${abs}. Read the file and copy the text exactly, including indentation.`, isError: true };
    if (n > 1 && !i.replace_all) {
      return { content: `old_string matches ${n} places in ${abs}. Include more surrounding lines so it matches exactly one, or set replace_all to true.`, isError: true };
    }
    if (signal.aborted) return { content: 'Not edited: interrupted.', isError: true };
    const first = text.indexOf(i.old_string);
    const next = i.replace_all ? text.split(i.old_string).join(i.new_string) : text.slice(0, first) + i.new_string + text.slice(first + i.old_string.length);
    await writeFileAtomic(abs, next);
    return { content: `Edited ${abs}${n > 1 ? ` (${n} replacements)` : ''}:\n${snippet(next, first, i.new_string.length)}` };
  },
};
