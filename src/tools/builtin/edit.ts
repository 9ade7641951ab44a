import { readRegularFile } from '../../fs/read';
import { resolveToolPath } from '../paths';
import type { Tool } from '../types';
import { z } from 'zod';
import { fileText, parseToolInput, pathField, toInputSchema } from '../schema';
import { decodeText, describeText, encodeText, findAllBytes, hasNonAscii, spliceBytes, type TextForm, withLineEnds } from './encoding';
import { errorMessage, hasNulByte, INTERRUPTED, writeAtomic } from './util';

const editInput = z.object({
  file_path: pathField('The file to change, absolute or relative to the workspace'),
  old_string: z.string().describe('The exact text to replace'),
  new_string: fileText('The text to put in its place (must differ from old_string)'),
  replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one (default false)'),
});
type EditInput = z.output<typeof editInput>;

/** Start offsets of every non-overlapping occurrence of `needle`. */
function findAll(text: string, needle: string): number[] {
  const at: number[] = [];
  if (needle === '') return at;
  for (let k = text.indexOf(needle); k >= 0; k = text.indexOf(needle, k + needle.length)) at.push(k);
  return at;
}

/** Edit holds the file, its new text and a split of it in memory at once: refuse beyond this. */
export const EDIT_MAX_BYTES = 10 * 1024 * 1024;

const CONTEXT_LINES = 3;
const SNIPPET_MAX_LINES = 30;

/** The lines around text[from, to) in `cat -n` form, so the model sees the result without a Read. */
function snippet(text: string, from: number, to: number): string {
  const lines = text.split('\n');
  const firstLine = text.slice(0, from).split('\n').length - 1;
  const lastLine = text.slice(0, Math.max(from, to)).split('\n').length - 1;
  const start = Math.max(0, firstLine - CONTEXT_LINES);
  let end = Math.min(lines.length, lastLine + CONTEXT_LINES + 1);
  let cut = '';
  if (end - start > SNIPPET_MAX_LINES) {
    cut = `\n   ... (${end - start - SNIPPET_MAX_LINES} more lines)`;
    end = start + SNIPPET_MAX_LINES;
  }
  return (
    lines
      .slice(start, end)
      .map((l, k) => `${String(start + k + 1).padStart(6)}\t${l.replace(/\r$/, '')}`)
      .join('\n') + cut
  );
}

export type EditPlan = { ok: true; next: string; first: number; count: number; newLength: number } | { ok: false; message: string };

const notFound = (abs: string) => `old_string was not found in ${abs}. It must match exactly, whitespace and indentation included; Read the file again and copy the text from it.`;
const ambiguous = (abs: string, n: number) =>
  `old_string occurs ${n} times in ${abs}, so the edit is ambiguous. Include more surrounding lines in old_string so it matches exactly one place, or set replace_all to true to change all ${n}.`;

/** The replacement an Edit makes in a text (the UTF-16 path, and the rule the byte path follows). */
/**
 * An edit may not make a file larger than Edit reads: one replace_all turned a 2 MB file into
 * 400 MB and the agent's memory past 1.3 GB (pass 31 F2).
 */
const tooLarge = (abs: string) => `The edit would make ${abs} larger than ${EDIT_MAX_BYTES / (1024 * 1024)} MB, more than Edit reads or writes; nothing was changed. Make a smaller change, or write the file with a command.`;

function planEdit(text: string, i: Pick<EditInput, 'old_string' | 'new_string' | 'replace_all'>, abs: string): EditPlan {
  let oldString = i.old_string;
  let newString = i.new_string;
  let at = findAll(text, oldString);
  // A file with Windows line endings, and a model that wrote '\n': match it the file's way.
  if (at.length === 0 && text.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r')) {
    oldString = oldString.replace(/\n/g, '\r\n');
    newString = newString.replace(/\r?\n/g, '\r\n');
    at = findAll(text, oldString);
  }
  if (at.length === 0) return { ok: false, message: notFound(abs) };
  if (at.length > 1 && i.replace_all !== true) return { ok: false, message: ambiguous(abs, at.length) };
  const first = at[0]!;
  const grows = (i.replace_all ? at.length : 1) * (newString.length - oldString.length);
  if (text.length + grows > EDIT_MAX_BYTES) return { ok: false, message: tooLarge(abs) };
  const next = i.replace_all ? text.split(oldString).join(newString) : text.slice(0, first) + newString + text.slice(first + oldString.length);
  return { ok: true, next, first, count: at.length, newLength: newString.length };
}

export type FileEditPlan =
  | {
      ok: true;
      /** The file's new bytes: every byte outside the replaced ranges is the old file's. */
      bytes: Buffer;
      /** The new text as shown (a diff, the result's snippet). */
      text: string;
      /** Where the first replacement starts in `text`, and how long it is. */
      first: number;
      newLength: number;
      count: number;
    }
  | { ok: false; message: string };

/**
 * The replacement an Edit makes in an existing file's bytes, or why it cannot: the one rule for
 * the tool itself and for whoever shows the change before it is made (the diff review). A UTF-16
 * file is edited as text and stored back in UTF-16 with its mark; anything else is edited as
 * bytes, so a file in Latin-1 or with a byte order mark keeps every byte old_string does not cover.
 */
export function planFileEdit(bytes: Buffer, asked: Pick<EditInput, 'old_string' | 'new_string' | 'replace_all'>, abs: string): FileEditPlan {
  const form = describeText(bytes);
  // Lines added to a file whose every line ends in \r\n end the same way, whatever old_string was.
  const i = { ...asked, new_string: withLineEnds(asked.new_string, form) };
  if (form.encoding !== 'utf8') {
    // Text in UTF-16 comes in pairs of bytes: a lone last byte (a cut or appended file) has no
    // character to keep it in, and was dropped without a word (pass 39 C5).
    if ((bytes.length - 2) % 2 === 1) return { ok: false, message: `${abs} is UTF-16 (it starts with a byte order mark) but holds an odd number of bytes, so its last byte belongs to no character; an edit would drop it. Mend the file first (a command that knows its encoding), or use Write to replace it whole.` };
    const plan = planEdit(decodeText(bytes, form), i, abs);
    return plan.ok ? { ok: true, bytes: encodeText(plan.next, form), text: plan.next, first: plan.first, newLength: plan.newLength, count: plan.count } : plan;
  }
  // What Read would not show as text, Edit does not change as text: in UTF-16 without its mark,
  // say, the bytes of old_string can sit across two characters.
  if (hasNulByte(bytes)) return { ok: false, message: `${abs} looks binary (it has NUL bytes in its first 8 KB), so Read does not return it as text and Edit does not change it. If it is text in UTF-16 without a byte order mark, change it with a command that knows its encoding.` };
  if (!form.valid && (hasNonAscii(i.old_string) || hasNonAscii(i.new_string))) {
    return {
      ok: false,
      message:
        `${abs} is not UTF-8 text (it has bytes that are not valid UTF-8, as Latin-1 or Windows-1252 files do), and old_string or new_string has non-ASCII characters: ` +
        `they cannot be matched or written in the file's own encoding. Edit it with ASCII-only old_string and new_string (choose them around the other characters), or change it with a command that knows its encoding.`,
    };
  }
  const start = form.bom ? 3 : 0;
  let oldB = Buffer.from(i.old_string, 'utf8');
  let newB = Buffer.from(i.new_string, 'utf8');
  let at = findAllBytes(bytes, oldB, start);
  // A file with Windows line endings, and a model that wrote '\n': match it the file's way.
  if (at.length === 0 && bytes.includes('\r\n') && i.old_string.includes('\n') && !i.old_string.includes('\r')) {
    oldB = Buffer.from(i.old_string.replace(/\n/g, '\r\n'), 'utf8');
    newB = Buffer.from(i.new_string.replace(/\r?\n/g, '\r\n'), 'utf8');
    at = findAllBytes(bytes, oldB, start);
  }
  if (at.length === 0) return { ok: false, message: notFound(abs) + (form.valid ? '' : ' (The file is not UTF-8: characters Read showed as \uFFFD cannot be matched; choose old_string around them.)') };
  if (at.length > 1 && i.replace_all !== true) return { ok: false, message: ambiguous(abs, at.length) };
  const used = i.replace_all ? at : at.slice(0, 1);
  // In Shift-JIS, GBK or Big5 the second byte of a two-byte character may be an ASCII letter or
  // sign: text found right after a byte that may lead such a character may be half of one.
  if (!form.valid && used.some((k) => k > start && bytes[k - 1]! >= 0x81 && oldB[0]! >= 0x40 && oldB[0]! <= 0x7e)) {
    return { ok: false, message: `old_string is found in ${abs} right after a byte that is not ASCII; in this file, which is not UTF-8, it may be the second half of a two-byte character (Shift-JIS, GBK, Big5). Start old_string at the beginning of its line, or change the file with a command that knows its encoding.` };
  }
  if (bytes.length + used.length * (newB.length - oldB.length) > EDIT_MAX_BYTES) return { ok: false, message: tooLarge(abs) };
  const next = spliceBytes(bytes, used, oldB.length, newB);
  const shown = (b: Buffer) => decodeText(b, form as TextForm);
  return { ok: true, bytes: next, text: shown(next), first: shown(next.subarray(0, used[0])).length, newLength: newB.toString('utf8').length, count: at.length };
}

export const editTool: Tool<EditInput> = {
  name: 'Edit',
  description: [
    'Change a file by replacing exact text: old_string is found in the file and replaced with new_string.',
    'old_string must match the file character for character, indentation and line breaks included (copy it from Read output without the line-number prefix).',
    'It must occur exactly once unless replace_all is true; if it occurs several times, add surrounding lines until it is unique, or set replace_all to replace every occurrence (handy for renames).',
    'An empty old_string on a file that does not exist creates it with new_string as its content.',
    'Read the file before editing it. The write is atomic; the result shows the changed lines. The user may be asked to approve the edit.',
  ].join(' '),
  inputSchema: toInputSchema(editInput),
  traits: { writesFiles: true, matchesText: true, compactable: true, background: 'write' },
  parse: (input) => parseToolInput(editInput, input),
  isReadOnly: () => false,
  summarize: (i) => (i.replace_all ? `${i.file_path} (replace all)` : i.file_path),
  paths: (i, cwd) => [resolveToolPath(cwd, i.file_path)],
  async call(i, { cwd, signal }) {
    if (signal.aborted) return INTERRUPTED;
    const abs = resolveToolPath(cwd, i.file_path);
    if (i.old_string === i.new_string) return { content: 'old_string and new_string are identical, so there is nothing to change.', isError: true };
    const read = await readRegularFile(abs, EDIT_MAX_BYTES);
    if (!read.ok) {
      switch (read.reason) {
        case 'folder':
          return { content: `${abs} is a folder; give the path of a file.`, isError: true };
        case 'not-regular':
          return { content: `${abs} is not a regular file (a FIFO, socket or device); Edit only changes regular files.`, isError: true };
        case 'too-large':
          return { content: `${abs} is over ${EDIT_MAX_BYTES / (1024 * 1024)} MB, more than Edit reads; change it with a command (sed, a script) instead.`, isError: true };
        case 'unreadable':
          return { content: `Cannot read ${abs}: ${errorMessage(read.error)}.`, isError: true };
      }
      if (i.old_string !== '') return { content: `File does not exist: ${abs}. To create a file, use Write (or Edit with an empty old_string).`, isError: true };
      try {
        await writeAtomic(abs, i.new_string);
      } catch (e) {
        return { content: `Could not create ${abs}: ${errorMessage(e)}.`, isError: true };
      }
      return { content: `Created ${abs}:\n${snippet(i.new_string, 0, i.new_string.length)}` };
    }
    if (signal.aborted) return INTERRUPTED;
    if (i.old_string === '') {
      if (read.bytes.length !== 0) return { content: `${abs} already exists and is not empty; an empty old_string only creates files. Give the exact text to replace, or use Write to replace the whole file.`, isError: true };
      await writeAtomic(abs, i.new_string);
      return { content: `Wrote into the empty file ${abs}:\n${snippet(i.new_string, 0, i.new_string.length)}` };
    }
    const plan = planFileEdit(read.bytes, i, abs);
    if (!plan.ok) return { content: plan.message, isError: true };
    if (signal.aborted) return INTERRUPTED;
    const { text, first, count, newLength } = plan;
    try {
      await writeAtomic(abs, plan.bytes);
    } catch (err) {
      return { content: `Could not write ${abs}: ${errorMessage(err)}.`, isError: true };
    }
    const what = count > 1 ? `Replaced ${count} occurrences in ${abs}; the first is now:` : `Edited ${abs}:`;
    return { content: `${what}\n${snippet(text, first, first + newLength)}` };
  },
};
