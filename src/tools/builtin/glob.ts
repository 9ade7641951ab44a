import { inspect } from '../../fs/stat';
import { globToRegExp } from '../glob';
import { resolveToolPath } from '../paths';
import type { Tool } from '../types';
import { ROOT_ONLY, scopeFilter, searchedFolders, searchRoot, walkGlobResult, type SearchScope } from '../walk';
import { z } from 'zod';
import { nonEmptyString, parseToolInput, pathField, toInputSchema } from '../schema';
import { displayPath, errorMessage, INTERRUPTED, walkNotes } from './util';

export { walkGlob, type WalkedFile } from '../walk';

const MAX_RESULTS = 100;

const globInput = z.object({
  pattern: nonEmptyString('Glob pattern: ** any folders, * and ? within a name, {a,b} alternatives, [a-z] classes'),
  path: pathField('Folder to search in, absolute or relative to the workspace (default: the workspace)').optional(),
});
type GlobInput = z.output<typeof globInput>;

/** The folder a Glob call really searches, and its pattern relative to that folder. */
function target(i: GlobInput, cwd: string) {
  return searchRoot(resolveToolPath(cwd, i.path ?? '.'), i.pattern);
}

/** `scope` decides which found files may be listed (the permission engine's read rules). */
export function createGlobTool(scope: SearchScope = ROOT_ONLY): Tool<GlobInput> {
  return {
    name: 'Glob',
    description: [
      'Find files by name with a glob pattern, e.g. "**/*.ts", "src/**/*.{ts,tsx}", "test/unit/*/[a-m]*.ts" or "package.json".',
      'A pattern without "/" matches file names at any depth. `path` is the folder to search (default: the workspace); the pattern is relative to it.',
      'Returns matching file paths (relative to the workspace), most recently modified first, at most 100; narrow the pattern when the list is cut.',
      '.git and node_modules (unless the pattern names them) and files ignored by .gitignore are skipped, and so, without a word, are files that Read deny or ask rules cover. Use this instead of `find` or `ls` in Bash; use Grep to search inside files.',
    ].join(' '),
    inputSchema: toInputSchema(globInput),
    traits: { readsFiles: true, compactable: true, background: 'read' },
    parse: (input) => {
      const r = parseToolInput(globInput, input);
      if (!r.ok) return r;
      try {
        globToRegExp(r.value.pattern);
      } catch (err) {
        return { ok: false, error: `"pattern" is not a usable glob: ${errorMessage(err)}` };
      }
      return r;
    },
    isReadOnly: () => true,
    summarize: (i) => (i.path ? `${i.pattern} in ${i.path}` : i.pattern),
    paths: (i, cwd) => {
      const t = target(i, cwd);
      return searchedFolders(t.root, t.pattern);
    },
    async call(i, { cwd, signal }) {
      const { root, pattern, anchored } = target(i, cwd);
      const info = await inspect(root);
      if (info.kind === 'missing' || info.kind === 'unreadable') return { content: `Cannot search ${root}: ${errorMessage(info.error ?? Object.assign(new Error(''), { code: 'ENOENT' }))}.`, isError: true };
      if (info.kind !== 'folder') return { content: `${root} is not a folder; give a folder as path.`, isError: true };
      const found = await walkGlobResult(root, pattern, { signal, anchored });
      if (signal.aborted) return INTERRUPTED;
      // Judged where each file really is: a file reached through a linked folder is where the link leads.
      const { kept: files, hidden } = scopeFilter(found.files, found.realStart, scope, found.linksToNoFile);
      const notes = [...(hidden ? [`(${hidden} match${hidden === 1 ? '' : 'es'} left out: links leading outside the folders Threadline may read, or to no file.)`] : []), ...walkNotes(found)];
      if (files.length === 0) return { content: [`No files match ${i.pattern} in ${displayPath(cwd, root)}.`, ...notes].join('\n') };
      files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
      const lines = files.slice(0, MAX_RESULTS).map((f) => displayPath(cwd, f.abs));
      if (files.length > MAX_RESULTS) lines.push(`(${files.length - MAX_RESULTS} more matches not shown: only the ${MAX_RESULTS} newest are listed. Use a narrower pattern or path.)`);
      lines.push(...notes);
      return { content: lines.join('\n') };
    },
  };
}

export const globTool = createGlobTool();
