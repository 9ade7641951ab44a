import { resolveToolPath } from './paths';
import { walkGlob } from './glob';
import type { Tool } from './types';
import { parseFields } from './util';

const MAX_RESULTS = 100;

interface GlobInput {
  pattern: string;
  path?: string;
}

export const globTool: Tool<GlobInput> = {
  name: 'Glob',
  description:
    'Finds files by name pattern, e.g. "**/*.ts" or "src/**/*.{js,jsx}", under a folder (default: the workspace). ' +
    'Returns paths newest first, at most 100. Skips .git and node_modules unless the pattern names them. Use it instead of `find` or `ls -R`.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Glob pattern' },
      path: { type: 'string', description: 'Folder to search (default: workspace)' },
    },
    required: ['pattern'],
  },
  parse: (input) => parseFields<GlobInput>(input, { pattern: 'string' }, { path: 'string' }),
  isReadOnly: () => true,
  summarize: (i) => (i.path ? `${i.pattern} under ${i.path}` : i.pattern),
  paths: (i, cwd) => [resolveToolPath(cwd, i.path ?? '.')],
  async call(i, { cwd, signal }) {
    const root = resolveToolPath(cwd, i.path ?? '.');
    const files = await walkGlob(root, i.pattern, signal);
    if (!files.length) return { content: 'No files found.' };
    files.sort((a, b) => b.mtimeMs - a.mtimeMs || a.rel.localeCompare(b.rel));
    const shown = files.slice(0, MAX_RESULTS).map((f) => {
      const abs = resolveToolPath(root, f.rel);
      return abs.startsWith(`${cwd}/`) ? abs.slice(cwd.length + 1) : abs;
    });
    const more = files.length > MAX_RESULTS ? `\n(${files.length - MAX_RESULTS} more files not shown; use a narrower pattern)` : '';
    return { content: shown.join('\n') + more };
  },
};
