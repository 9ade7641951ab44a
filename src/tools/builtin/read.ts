import { readLines, type Line } from '../../fs/lines';
import { readCapped } from '../../fs/read';
import { inspect } from '../../fs/stat';
import { resolveToolPath } from '../paths';
import type { Tool } from '../types';
import { z } from 'zod';
import { parseToolInput, pathField, toInputSchema } from '../schema';
import { decodeUtf16, utf16Bom } from './encoding';
import { errorMessage, hasBinaryExtension, hasNulByte, INTERRUPTED, readHead } from './util';

export const READ_MAX_BYTES = 256 * 1024;
/** Bytes Read scans to reach the lines asked for: far enough for any source file, short of a terabyte of zeros (a single line of 540 MB is still read through). */
export const READ_MAX_SCAN_BYTES = 1024 * 1024 * 1024;
const MB = 1024 * 1024;
const READ_DEFAULT_LIMIT = 2000;
const READ_MAX_LINE = 2000;

const readInput = z.object({
  file_path: pathField('The file to read, absolute or relative to the workspace'),
  offset: z.number().int().min(1).optional().describe('Line number to start at, 1-based (default 1)'),
  limit: z.number().int().min(1).optional().describe(`Number of lines to return (default ${READ_DEFAULT_LIMIT})`),
});
type ReadInput = z.output<typeof readInput>;

function numbered(n: number, line: Line): string {
  const text = line.cutFrom !== undefined ? `${line.text}… [line cut at ${READ_MAX_LINE} of ${line.cutFrom} characters]` : line.text;
  return `${String(n).padStart(6)}\t${text}`;
}

/** A UTF-16 file (it has a byte order mark) as lines: decoded whole, within the size Read returns in one go. */
async function utf16Lines(abs: string, first: number, count: number): Promise<{ lines: Line[]; more: boolean; total: number } | string> {
  const read = await readCapped(abs, { maxBytes: READ_MAX_BYTES * 2 });
  if (!read.ok) return `it is no longer a regular file`;
  if (read.capped) return `it is a UTF-16 file over ${READ_MAX_BYTES / 1024} KB of text, more than Read decodes`;
  const all = decodeUtf16(read.bytes).split('\n');
  if (all.at(-1) === '') all.pop();
  const cut = (l: string): Line => {
    const t = l.endsWith('\r') ? l.slice(0, -1) : l;
    return t.length > READ_MAX_LINE ? { text: t.slice(0, READ_MAX_LINE), cutFrom: t.length } : { text: t };
  };
  const lines = all.slice(first - 1, first - 1 + count).map(cut);
  return { lines, more: first - 1 + lines.length < all.length, total: all.length };
}

export const readTool: Tool<ReadInput> = {
  name: 'Read',
  description: [
    'Read a text file and get its contents with line numbers, formatted like `cat -n` (number, tab, line).',
    'file_path may be absolute or relative to the workspace.',
    `Returns up to ${READ_DEFAULT_LIMIT} lines from the start by default; to page through a long file pass offset (the 1-based line to start at) and limit (how many lines).`,
    `Files over ${READ_MAX_BYTES / 1024} KB are only read in pages (offset/limit). Lines longer than ${READ_MAX_LINE} characters are cut.`,
    'Binary files (images, archives, executables, PDFs) are refused, and so are folders: use Glob to list files.',
    'Read a file before you Edit it. Reads are safe to batch: several Read calls in one response run in parallel.',
  ].join(' '),
  inputSchema: toInputSchema(readInput),
  traits: { readsFiles: true, returnsFileContent: true, compactable: true, background: 'read' },
  parse: (input) => parseToolInput(readInput, input),
  isReadOnly: () => true,
  summarize: (i) => {
    if (i.offset === undefined && i.limit === undefined) return i.file_path;
    const from = i.offset ?? 1;
    return `${i.file_path} (lines ${from}–${from + (i.limit ?? READ_DEFAULT_LIMIT) - 1})`;
  },
  paths: (i, cwd) => [resolveToolPath(cwd, i.file_path)],
  async call(i, { cwd, signal }) {
    if (signal.aborted) return INTERRUPTED;
    const abs = resolveToolPath(cwd, i.file_path);
    const info = await inspect(abs);
    if (info.kind === 'folder') return { content: `${abs} is a folder, not a file. Use Glob (e.g. pattern "*" with path "${i.file_path}") to list what is in it.`, isError: true };
    if (info.kind === 'missing') return { content: `File does not exist: ${abs}. Check the path, or find the file with Glob.`, isError: true };
    if (info.kind === 'unreadable') return { content: `Cannot read ${abs}: ${errorMessage(info.error)}.`, isError: true };
    if (info.kind !== 'file') return { content: `${abs} is not a regular file.`, isError: true };
    if (hasBinaryExtension(abs)) return { content: `${abs} is a binary file (by its extension); Read only returns text.`, isError: true };
    if (info.size === 0) return { content: `(${abs} exists but is empty.)` };
    const paging = i.offset !== undefined || i.limit !== undefined;
    if (info.size > READ_MAX_BYTES && !paging) {
      return {
        content:
          `${abs} is ${Math.ceil(info.size / 1024)} KB, over the ${READ_MAX_BYTES / 1024} KB that Read returns in one go. ` +
          `Read it in pages with offset and limit (for example offset 1, limit 1000, then offset 1001), or find the part you need with Grep first.`,
        isError: true,
      };
    }
    try {
      const head = await readHead(abs);
      const first = i.offset ?? 1;
      const limit = i.limit ?? READ_DEFAULT_LIMIT;
      let lines: Line[];
      let more: boolean;
      let total: number | undefined;
      let capped = false;
      let scanStopped: number | undefined;
      if (utf16Bom(head)) {
        const r = await utf16Lines(abs, first, limit);
        if (typeof r === 'string') return { content: `Cannot read ${abs}: ${r}.`, isError: true };
        ({ lines, more, total } = r);
      } else {
        if (hasNulByte(head)) return { content: `${abs} looks binary (it has NUL bytes); Read only returns text.`, isError: true };
        // Streamed, each line kept only up to its cap and the whole up to the result cap: a file of
        // one enormous line, or a limit of a hundred million lines, gives a bounded answer.
        const r = await readLines(abs, { first, count: limit, maxLineChars: READ_MAX_LINE, maxOutputBytes: READ_MAX_BYTES, countAll: info.size <= READ_MAX_BYTES, maxScanBytes: READ_MAX_SCAN_BYTES, signal });
        if (!r.ok) return { content: `Cannot read ${abs}: ${r.reason === 'unreadable' ? errorMessage(r.error) : 'it is no longer a regular file'}.`, isError: true };
        ({ lines, more, total } = r);
        capped = r.outputCapped;
        if (r.scanStoppedAt !== undefined && lines.length === 0) {
          return {
            content: `Stopped after reading ${Math.round(r.scanStoppedAt / MB)} MB of ${abs} without reaching line ${first}: lines that far into a file (or one endless line, such as a run of zero bytes) are not read by Read. Find the part you need with Grep, or with Bash (tail -c, or sed -n on a byte range).`,
            isError: true,
          };
        }
        if (r.scanStoppedAt !== undefined) scanStopped = r.scanStoppedAt;
      }
      if (signal.aborted) return INTERRUPTED;
      if (lines.length === 0) return { content: `${abs} has ${total ?? 'fewer'} lines; offset ${first} is past the end.`, isError: true };
      if (first === 1 && lines[0]?.text.startsWith('\uFEFF')) lines[0] = { ...lines[0], text: lines[0].text.slice(1) };
      const body = lines.map((l, k) => numbered(first + k, l)).join('\n');
      const last = first + lines.length - 1;
      const of = total !== undefined ? ` of ${total}` : '';
      const note = scanStopped !== undefined
        ? `\n\n(Showing lines ${first}–${last}: reading stopped ${Math.round(scanStopped / MB)} MB into the file, in a line that had not ended. Use Grep or Bash for what follows.)`
        : capped
        ? `\n\n(Showing lines ${first}–${last}${of}: the result stops at ${READ_MAX_BYTES / 1024} KB. Continue with offset ${last + 1}.)`
        : more
          ? `\n\n(Showing lines ${first}–${last}${of}. Continue with offset ${last + 1}.)`
          : '';
      return { content: body + note };
    } catch (err) {
      return { content: `Cannot read ${abs}: ${errorMessage(err)}.`, isError: true };
    }
  },
};
