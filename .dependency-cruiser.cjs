// The layers of ARCHITECTURE.md, enforced by `npm run lint`. Lowest first; a file may import its
// own layer and the layers below it. Type-only imports count: they tie the files all the same.
const LAYERS = [
  ['base', 'shared', 'ports', 'api', 'fs'],
  ['state', 'conversation', 'tools'],
  ['context', 'compact', 'memory', 'sessions', 'permissions', 'checkpoints', 'mcp'],
  ['agent'],
  ['chat', 'cli', 'vscode'],
];
const folders = (names) => `^src/(${names.join('|')})/`;
const above = (i) => {
  const higher = LAYERS.slice(i + 1).flat();
  return higher.length ? `${folders(higher)}|^src/extension\\.ts$` : '^src/extension\\.ts$';
};

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'An import cycle ties its files into one unit.', from: {}, to: { circular: true } },
    ...LAYERS.slice(0, -1).map((names, i) => ({
      name: `layer-${i + 1}-imports-upward`,
      severity: 'error',
      comment: `${names.join(', ')} may import only their own layer and the layers below (ARCHITECTURE.md).`,
      from: { path: folders(names) },
      to: { path: above(i) },
    })),
    {
      name: 'unplaced-folder',
      severity: 'error',
      comment: 'Every folder of src/ has a place in the layer list (add it to ARCHITECTURE.md and here).',
      from: { path: '^src/', pathNot: `${folders(LAYERS.flat())}|^src/extension\\.ts$` },
      to: {},
    },
    {
      name: 'file-system-only-through-the-gate',
      severity: 'error',
      comment: 'Every read, write, listing and stat goes through the file-system gate in src/fs/ (ARCHITECTURE.md): it resolves where a path really is, refuses anything but regular files and caps what it reads.',
      from: { path: '^src/', pathNot: '^src/fs/' },
      to: { path: '^(node:)?fs(/promises)?$|^(write-file-atomic|proper-lockfile|fdir)$|node_modules/(write-file-atomic|proper-lockfile|fdir)/' },
    },
    {
      name: 'webview-imports-only-shared',
      severity: 'error',
      comment: 'The webview is a separate build that talks to the host through the protocol in src/shared only.',
      from: { path: '^webview-ui/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'core-never-imports-vscode',
      severity: 'error',
      comment: 'The core runs in plain Node (the CLI drives it); only the VS Code face may import vscode.',
      from: { path: '^src/', pathNot: '^src/vscode/|^src/extension\\.ts$' },
      to: { path: '^vscode$', dependencyTypes: ['core', 'unknown', 'npm', 'undetermined'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs'] },
  },
};
