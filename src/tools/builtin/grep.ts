import { basename } from 'node:path';
import { RE2JS } from 're2js';
import { realPathOf } from '../../fs/paths';
import { readRegularFile } from '../../fs/read';
import { inspect } from '../../fs/stat';
import type { WalkedFile, WalkResult } from '../../fs/walk';
import { globToRegExp } from '../glob';
import { resolveToolPath } from '../paths';
import type { Tool } from '../types';
import { readAhead, ROOT_ONLY, scopeFilter, searchedFolders, searchRoot, walkGlobResult, type SearchScope } from '../walk';
import { z } from 'zod';
import { nonEmptyString, parseToolInput, pathField, toInputSchema } from '../schema';
import { displayPath, errorMessage, hasBinaryExtension, hasNulByte, INTERRUPTED, walkNotes } from './util';

const GREP_MAX_FILE_BYTES = 1024 * 1024;
const GREP_DEFAULT_HEAD_LIMIT = 200;
/** Results are gathered before the output is cut: head_limit 1e9 over 70 MB of matching lines filled the heap (pass 46 F3). */
const GREP_MAX_HEAD_LIMIT = 5_000;
const MAX_LINE_SHOWN = 500;

const MODES = ['files_with_matches', 'content', 'count'] as const;
type OutputMode = (typeof MODES)[number];

const grepInput = z.object({
  pattern: nonEmptyString('Regular expression to search for (RE2 syntax)'),
  path: pathField('File or folder to search, absolute or relative to the workspace (default: the workspace)').optional(),
  glob: nonEmptyString('Only search files matching this glob, e.g. "*.js" or "src/**/*.ts"').optional(),
  output_mode: z.enum(MODES).optional().describe('files_with_matches (default), content or count'),
  '-i': z.boolean().optional().describe('Case-insensitive search'),
  head_limit: z.number().int().min(1).optional().describe(`Most results to return (default ${GREP_DEFAULT_HEAD_LIMIT}, at most ${GREP_MAX_HEAD_LIMIT})`),
});
type GrepInput = z.output<typeof grepInput>;

/**
 * The pattern under RE2 (re2js): matching time is linear in the line's length, so `(a+)+$` on a
 * long line cannot stall the host. RE2 has no look-around or back-references, like ripgrep.
 */
/**
 * RE2 is linear in the text but not in the pattern: its automaton grows with each counted
 * repetition, and `.{1000}` twenty times took minutes over one 300 KB file, past Ctrl+C
 * (pass 37 B3). The counts of one pattern may add up to this much.
 */
const MAX_REPEAT = 1000;

function repeatTotal(pattern: string): number {
  let total = 0;
  for (const m of pattern.matchAll(/(?<!\\)\{(\d+)(?:,(\d*))?\}/g)) total += Math.max(Number(m[1]), Number(m[2] || 0));
  return total;
}

/**
 * The counts' sum bounds neither nesting (`((.{10}){10}){10}` is 1,000 states for 30 written) nor a
 * pattern spelled out (30,000 dots): matching costs about the compiled program's size per character,
 * and 36,000 held the host for minutes on one minified file (pass 39 C1). Past this size a pattern
 * is refused; at it, a 1 MB line takes a few seconds, and Ctrl+C is served between files.
 */
const MAX_PROGRAM_SIZE = 1_500;

function compile(i: Pick<GrepInput, 'pattern' | '-i'>): { test(line: string): boolean } {
  if (repeatTotal(i.pattern) > MAX_REPEAT) throw new Error(`its repetition counts ({n}) add up to more than ${MAX_REPEAT}, which makes matching slow; use smaller counts`);
  const re = RE2JS.compile(RE2JS.translateRegExp(i.pattern), i['-i'] ? RE2JS.CASE_INSENSITIVE : 0);
  if (re.programSize() > MAX_PROGRAM_SIZE) throw new Error(`it compiles to ${re.programSize()} steps (nested or spelled-out repetitions), over ${MAX_PROGRAM_SIZE}, which makes matching slow; use a shorter pattern`);
  return re;
}

/** Where the call searches: its path, moved by an absolute or `../` glob (see searchRoot). */
function target(i: GrepInput, cwd: string): { root: string; glob: string | undefined; anchored: boolean } {
  const root = resolveToolPath(cwd, i.path ?? '.');
  if (!i.glob) return { root, glob: undefined, anchored: false };
  const t = searchRoot(root, i.glob);
  return { root: t.root, glob: t.pattern, anchored: t.anchored };
}

/**
 * Matching time one call may spend, all files together. Each pattern's cost per character is
 * bounded above, but not its product with the folder's size: `a[ab]{900}[cd]` passes the bounds
 * and cost 75 s over a 10 MB clone, more with a bigger one (pass 70 M1). Past this the call
 * answers with what it found and says where it stopped.
 */
const MATCH_BUDGET_MS = 20_000;

/** `scope` decides which found files may be searched (the permission engine's read rules). */
export function createGrepTool(scope: SearchScope = ROOT_ONLY, budgetMs = MATCH_BUDGET_MS): Tool<GrepInput> {
  return {
    name: 'Grep',
    description: [
      'Search file contents for a regular expression (RE2 syntax, as ripgrep: no look-around or back-references; matched line by line) in the files under a folder or in one file.',
      'path: where to search (default: the workspace). glob: only files matching this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}". "-i": ignore case.',
      'output_mode: "files_with_matches" (default) lists matching files; "content" shows matching lines as file:line:text; "count" shows file:number of matching lines.',
      `Paths are relative to the workspace and sorted. At most head_limit results (default ${GREP_DEFAULT_HEAD_LIMIT}); the output says when it was cut.`,
      `Skips .git, node_modules, files ignored by .gitignore, binary files and files over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB. Files that Read deny or ask rules cover are left out without a word. Use it instead of grep or rg in Bash; escape regex characters such as ( [ . to match them literally.`,
    ].join(' '),
    inputSchema: toInputSchema(grepInput),
    traits: { readsFiles: true, compactable: true, background: 'read' },
    parse: (input) => {
      const r = parseToolInput(grepInput, input);
      if (!r.ok) return r;
      try {
        compile(r.value);
      } catch (err) {
        return { ok: false, error: `"pattern" is not a valid regular expression: ${err instanceof Error ? err.message : String(err)}` };
      }
      try {
        if (r.value.glob) globToRegExp(r.value.glob);
      } catch (err) {
        return { ok: false, error: `"glob" is not a usable glob: ${err instanceof Error ? err.message : String(err)}` };
      }
      return r;
    },
    isReadOnly: () => true,
    summarize: (i) => `/${i.pattern}/${i['-i'] ? 'i' : ''}${i.glob ? ` in ${i.glob}` : ''}${i.path ? ` under ${i.path}` : ''}`,
    paths: (i, cwd) => {
      const t = target(i, cwd);
      return searchedFolders(t.root, t.glob);
    },
    async call(i, { cwd, signal }) {
      if (signal.aborted) return INTERRUPTED;
      const { root, glob, anchored } = target(i, cwd);
      const re = compile(i);
      const mode: OutputMode = i.output_mode ?? 'files_with_matches';
      const head = Math.min(i.head_limit ?? GREP_DEFAULT_HEAD_LIMIT, GREP_MAX_HEAD_LIMIT);

      let found: Pick<WalkResult, 'files' | 'realStart' | 'stopped' | 'gitignoreCapped' | 'gitignoreTooCostly' | 'linksToNoFile'>;
      const info = await inspect(root);
      if (info.kind === 'missing' || info.kind === 'unreadable') return { content: `Cannot search ${root}: ${errorMessage(info.error ?? Object.assign(new Error(''), { code: 'ENOENT' }))}.`, isError: true };
      if (info.kind === 'folder') found = await walkGlobResult(root, glob ?? '**/*', { signal, anchored });
      else if (info.kind !== 'file') return { content: `${root} is not a regular file (a FIFO, socket or device); Grep searches regular files.`, isError: true };
      else {
        const real = await realPathOf(root);
        const one: WalkedFile[] = real && (!glob || globToRegExp(glob).test(basename(root))) ? [{ rel: '', abs: root, real, size: info.size, mtimeMs: info.mtimeMs }] : [];
        found = { files: one, realStart: real, gitignoreCapped: [] };
      }
      if (signal.aborted) return INTERRUPTED;
      // Judged where each file really is: a file reached through a linked folder is where the link leads.
      const { kept, hidden } = scopeFilter(found.files, found.realStart, scope, found.linksToNoFile);
      const files = kept.map((f) => ({ ...f, shown: displayPath(cwd, f.abs) })).sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));

      const results: string[] = [];
      let cut = false;
      let tooBig = 0;
      const searched = files.filter((f) => {
        if (f.size > GREP_MAX_FILE_BYTES) tooBig++;
        return f.size <= GREP_MAX_FILE_BYTES && !hasBinaryExtension(f.abs);
      });
      // A pattern with no regex syntax is a plain string: files without it are skipped at once.
      const literal = !i['-i'] && !/[.^$*+?()[\]{}|\\]/.test(i.pattern) ? i.pattern : undefined;
      // Unreadable, gone, or swapped for a FIFO since the walk: skipped.
      // The file read is the one judged: its real location, not the path that led to it.
      const read = async (f: { real: string }) => {
        const r = await readRegularFile(f.real, GREP_MAX_FILE_BYTES);
        return r.ok ? r.bytes : undefined;
      };
      const deadline = Date.now() + budgetMs;
      let done = 0;
      let outOfTime = false;
      let partial = false;
      for await (const [f, buf] of readAhead(searched, 16, read)) {
        if (signal.aborted) return INTERRUPTED;
        if (Date.now() >= deadline) {
          outOfTime = true;
          break;
        }
        done++;
        if (!buf || hasNulByte(buf)) continue;
        const text = buf.toString('utf8');
        if (literal !== undefined && !text.includes(literal)) continue;
        const lines = text.split('\n');
        if (lines.at(-1) === '') lines.pop();
        let count = 0;
        for (let n = 0; n < lines.length; n++) {
          // Checked every 64 lines: a clock read per line would cost more than most matches.
          if ((n & 63) === 63 && Date.now() >= deadline) {
            outOfTime = partial = true;
            break;
          }
          const line = lines[n]!.endsWith('\r') ? lines[n]!.slice(0, -1) : lines[n]!;
          if (!re.test(line)) continue;
          count++;
          if (mode === 'files_with_matches') break;
          if (mode === 'content') {
            if (results.length >= head) {
              cut = true;
              break;
            }
            results.push(`${f.shown}:${n + 1}:${line.length > MAX_LINE_SHOWN ? `${line.slice(0, MAX_LINE_SHOWN)}… [line cut]` : line}`);
          }
        }
        if (cut || outOfTime) {
          if (outOfTime && count > 0 && mode !== 'content' && results.length < head) results.push(mode === 'count' ? `${f.shown}:${count}+` : f.shown);
          break;
        }
        if (count === 0 || mode === 'content') continue;
        if (results.length >= head) {
          cut = true;
          break;
        }
        results.push(mode === 'count' ? `${f.shown}:${count}` : f.shown);
      }

      const notes: string[] = [];
      if (cut) notes.push(`(Stopped at ${head} results; there are more. Narrow the search with path, glob or a more specific pattern, or raise head_limit.)`);
      if (outOfTime) notes.push(`(Stopped after ${Math.round(budgetMs / 1000)} s of matching, ${done} of ${searched.length} files searched${partial ? ', the last only in part' : ''}. Narrow the search with path or glob, or use a simpler pattern.)`);
      if (hidden) notes.push(`(${hidden} file${hidden === 1 ? '' : 's'} left out: links leading outside the folders Threadline may read, or to no file.)`);
      if (tooBig) notes.push(`(${tooBig} file${tooBig === 1 ? '' : 's'} over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB not searched.)`);
      notes.push(...walkNotes(found));
      if (results.length === 0) return { content: [`No matches for /${i.pattern}/ in ${displayPath(cwd, root)}.`, ...notes].join('\n') };
      return { content: [...results, ...(notes.length ? ['', ...notes] : [])].join('\n') };
    },
  };
}

export const grepTool = createGrepTool();
