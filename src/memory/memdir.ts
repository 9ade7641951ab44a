import { join } from 'node:path';
import { withFileLock } from '../fs/lock';
import { listFolder } from '../fs/list';
import { readStateFile, readStateText } from '../fs/read';
import { makeFolder, markPrivate, removeFile, writeFileAtomic } from '../fs/write';
import { parseFrontmatter, stringifyFrontmatter } from '../base/frontmatter';

export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export const INDEX_FILE = 'MEMORY.md';
const INDEX_MAX_LINES = 200;
const INDEX_MAX_BYTES = 25_000;

export interface MemoryRecord {
  name: string;
  description: string;
  type: MemoryType;
  body: string;
  file: string;
}

export interface InvalidMemory {
  file: string;
  reason: string;
}

export interface MemoryInput {
  name: string;
  description: string;
  type: MemoryType;
  body: string;
}

/** A memory is a short note; a file far past this is not one (and is not read whole). */
const MEMORY_FILE_MAX_BYTES = 1024 * 1024;

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function validateMemoryInput(input: MemoryInput): string | undefined {
  if (!NAME.test(input.name)) return `name must be 1-64 lowercase letters, digits, '_' or '-': ${JSON.stringify(input.name)}`;
  if (!MEMORY_TYPES.includes(input.type)) return `type must be one of ${MEMORY_TYPES.join(', ')}`;
  if (!input.description.trim()) return 'description is empty';
  if (/[\r\n]/.test(input.description)) return 'description must be one line';
  if (!input.body.trim()) return 'body is empty';
  return undefined;
}

function parseMemoryFile(file: string, text: string): MemoryRecord | InvalidMemory {
  let parsed: ReturnType<typeof parseFrontmatter>;
  try {
    parsed = parseFrontmatter(text);
  } catch (err) {
    return { file, reason: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
  }
  const d = parsed.data;
  const name = typeof d.name === 'string' ? d.name : undefined;
  const description = typeof d.description === 'string' ? d.description : undefined;
  const type = typeof d.type === 'string' ? d.type : undefined;
  if (!name || !description || !type) return { file, reason: 'frontmatter needs name, description and type' };
  if (!MEMORY_TYPES.includes(type as MemoryType)) return { file, reason: `unknown type ${JSON.stringify(type)}` };
  return { name, description, type: type as MemoryType, body: parsed.content.trim(), file };
}

function isInvalid(m: MemoryRecord | InvalidMemory): m is InvalidMemory {
  return 'reason' in m;
}

function renderMemoryFile(m: MemoryInput): string {
  return stringifyFrontmatter(`${m.body.trim()}\n`, { name: m.name, description: m.description, type: m.type });
}

function indexLine(m: Pick<MemoryRecord, 'name' | 'file' | 'description'>): string {
  const line = `- [${m.name}](${m.file}) — ${m.description}`;
  return line.length > 150 ? `${line.slice(0, 149)}…` : line;
}

/** Caps an index the way it is fed to the model: 200 lines and 25 KB, with a notice. */
export function capIndex(text: string): { text: string; truncated: boolean } {
  const lines = text.split('\n');
  let out = lines.slice(0, INDEX_MAX_LINES).join('\n');
  let truncated = lines.length > INDEX_MAX_LINES;
  if (Buffer.byteLength(out) > INDEX_MAX_BYTES) {
    out = Buffer.from(out).subarray(0, INDEX_MAX_BYTES).toString('utf8').replace(/\n[^\n]*$/, '');
    truncated = true;
  }
  if (truncated) out += `\n\n> ${INDEX_FILE} was cut to ${INDEX_MAX_LINES} lines / ${INDEX_MAX_BYTES / 1000} KB here. Keep it short: one line per memory; move detail into the topic files.`;
  return { text: out, truncated };
}

/**
 * One memory folder: typed topic files plus the MEMORY.md index. Every write takes the
 * folder lock and replaces files atomically, so two windows saving at once lose nothing;
 * a folder deleted mid-session is simply made again on the next save.
 */
export class MemoryDir {
  constructor(readonly dir: string) {
    // What the agent learnt about the user and the project: theirs alone, whoever writes it.
    markPrivate(dir);
  }

  private lockPath(): string {
    return join(this.dir, '.lock');
  }

  async list(): Promise<{ valid: MemoryRecord[]; invalid: InvalidMemory[] }> {
    let names: string[];
    try {
      names = (await listFolder(this.dir)).entries.map((e) => e.name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { valid: [], invalid: [] };
      throw err;
    }
    const valid: MemoryRecord[] = [];
    const invalid: InvalidMemory[] = [];
    for (const file of names.filter((n) => n.endsWith('.md') && n !== INDEX_FILE && !n.startsWith('.')).sort()) {
      const read = await readStateFile(join(this.dir, file), MEMORY_FILE_MAX_BYTES);
      if (!read.ok) {
        invalid.push({ file, reason: `unreadable: ${read.message}` });
        continue;
      }
      const m = parseMemoryFile(file, read.text);
      if (isInvalid(m)) invalid.push(m);
      else valid.push(m);
    }
    return { valid, invalid };
  }

  async get(name: string): Promise<MemoryRecord | InvalidMemory | undefined> {
    // A name is never a path: nothing outside the folder can be read through it.
    if (!NAME.test(name)) return undefined;
    const file = `${name}.md`;
    const text = await readStateText(join(this.dir, file), MEMORY_FILE_MAX_BYTES);
    return text === undefined ? undefined : parseMemoryFile(file, text);
  }

  async save(input: MemoryInput): Promise<MemoryRecord> {
    const problem = validateMemoryInput(input);
    if (problem) throw new Error(`Cannot save memory: ${problem}`);
    const file = `${input.name}.md`;
    await makeFolder(this.dir);
    await withFileLock(this.lockPath(), async () => {
      await writeFileAtomic(join(this.dir, file), renderMemoryFile(input));
      await this.rewriteIndexLocked();
    });
    return { ...input, file };
  }

  async remove(name: string): Promise<boolean> {
    if (!NAME.test(name)) return false;
    let removed = false;
    await makeFolder(this.dir);
    await withFileLock(this.lockPath(), async () => {
      try {
        await removeFile(join(this.dir, `${name}.md`), false);
        removed = true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      await this.rewriteIndexLocked();
    });
    return removed;
  }

  /** After the agent wrote topic files itself: bring the index back in line with them. */
  async rebuildIndex(): Promise<void> {
    await makeFolder(this.dir);
    await withFileLock(this.lockPath(), () => this.rewriteIndexLocked());
  }

  /** The index as the model sees it (capped), or undefined if there is none yet. */
  async loadIndex(): Promise<{ text: string; truncated: boolean } | undefined> {
    // Only its first lines are ever shown: a huge index is read no further than that.
    const text = await readStateText(join(this.dir, INDEX_FILE), MEMORY_FILE_MAX_BYTES);
    return text === undefined ? undefined : capIndex(text);
  }

  /**
   * The index is derived from the topic files, so it can never lose an entry that a file
   * still holds. Invalid files are listed too (never dropped), marked for the user to fix.
   */
  private async rewriteIndexLocked(): Promise<void> {
    const { valid, invalid } = await this.list();
    const lines = [
      '# Memory index',
      '',
      ...valid.map(indexLine),
      ...invalid.map((m) => `- [${m.file}](${m.file}) — (invalid: ${m.reason})`),
    ];
    await writeFileAtomic(join(this.dir, INDEX_FILE), `${lines.join('\n')}\n`);
  }
}
