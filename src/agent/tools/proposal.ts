import { promises as fs } from 'node:fs';
import { resolveToolPath } from '../../tools/paths';
import { editTool, planEdit } from './edit';
import { writeTool } from './write';

/** The largest file whose change is shown before it is made; above it the prompt shows the input. */
export const MAX_PROPOSAL_BYTES = 2 * 1024 * 1024;

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
 * (`planEdit` is the Edit tool's replacement) without writing anything. Reads only a regular
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
    if (before.text === undefined || i.old_string === '') {
      if (i.old_string !== '') return { ok: false, reason: `File does not exist: ${abs}` };
      if (before.text) return { ok: false, reason: `${abs} already exists and is not empty` };
      return { ok: true, change: { abs, before: before.text, after: i.new_string } };
    }
    const plan = planEdit(before.text, i, abs);
    return plan.ok ? { ok: true, change: { abs, before: before.text, after: plan.next } } : { ok: false, reason: plan.message };
  }
  return undefined;
}

async function readCurrent(abs: string): Promise<{ ok: true; text: string | undefined } | { ok: false; reason: string }> {
  let st;
  try {
    st = await fs.stat(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, text: undefined };
    return { ok: false, reason: `cannot read ${abs}` };
  }
  if (!st.isFile()) return { ok: false, reason: `${abs} is not a regular file` };
  if (st.size > MAX_PROPOSAL_BYTES) return { ok: false, reason: `${abs} is too large to show as a diff` };
  try {
    return { ok: true, text: await fs.readFile(abs, 'utf8') };
  } catch {
    return { ok: false, reason: `cannot read ${abs}` };
  }
}
