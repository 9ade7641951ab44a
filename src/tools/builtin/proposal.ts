import { readRegularFile } from '../../fs/read';
import { resolveToolPath } from '../paths';
import { decodeText, describeText } from './encoding';
import { editTool, planFileEdit } from './edit';
import { writeTool } from './write';

/** The largest file whose change is shown before it is made; above it the prompt shows the input. */
const MAX_PROPOSAL_BYTES = 2 * 1024 * 1024;

export interface ProposedChange {
  /** Absolute path of the file the call writes. */
  abs: string;
  /** The file's text now; undefined when it does not exist. */
  before: string | undefined;
  /** The text the call would leave in it. */
  after: string;
}

export type Proposal = { ok: true; change: ProposedChange } | { ok: false; reason: string };

/**
 * What a pending Write or Edit would leave in its file, worked out with the tools' own rules
 * (`planFileEdit` is the Edit tool's replacement) without writing anything. Reads only a regular
 * file of bounded size: a FIFO, a device or a huge file named by a hostile model is not opened.
 */
export async function proposeChange(toolName: string, input: unknown, cwd: string): Promise<Proposal | undefined> {
  if (toolName === writeTool.name) {
    const p = writeTool.parse(input);
    if (!p.ok) return { ok: false, reason: p.error };
    const abs = resolveToolPath(cwd, p.value.file_path);
    const before = await readCurrent(abs);
    if (!before.ok) return before;
    return { ok: true, change: { abs, before: before.text, after: p.value.content } };
  }
  if (toolName === editTool.name) {
    const p = editTool.parse(input);
    if (!p.ok) return { ok: false, reason: p.error };
    const i = p.value;
    const abs = resolveToolPath(cwd, i.file_path);
    if (i.old_string === i.new_string) return { ok: false, reason: 'old_string and new_string are identical' };
    const before = await readCurrent(abs);
    if (!before.ok) return before;
    if (before.bytes === undefined || i.old_string === '') {
      if (i.old_string !== '') return { ok: false, reason: `File does not exist: ${abs}` };
      if (before.text) return { ok: false, reason: `${abs} already exists and is not empty` };
      return { ok: true, change: { abs, before: before.text, after: i.new_string } };
    }
    const plan = planFileEdit(before.bytes, i, abs);
    return plan.ok ? { ok: true, change: { abs, before: before.text, after: plan.text } } : { ok: false, reason: plan.message };
  }
  return undefined;
}

async function readCurrent(abs: string): Promise<{ ok: true; text: string | undefined; bytes?: Buffer } | { ok: false; reason: string }> {
  const read = await readRegularFile(abs, MAX_PROPOSAL_BYTES);
  if (read.ok) return { ok: true, text: decodeText(read.bytes, describeText(read.bytes)), bytes: read.bytes };
  switch (read.reason) {
    case 'missing':
      return { ok: true, text: undefined };
    case 'too-large':
      return { ok: false, reason: `${abs} is too large to show as a diff` };
    case 'unreadable':
      return { ok: false, reason: `cannot read ${abs}` };
    default:
      return { ok: false, reason: `${abs} is not a regular file` };
  }
}
