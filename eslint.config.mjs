import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const GRAY_MATTER = { name: 'gray-matter', message: 'Parse frontmatter with src/base/frontmatter.ts: gray-matter alone runs ---js frontmatter as code.' };
const IGNORE = { name: 'ignore', message: 'Match gitignore patterns with ignoreMatcher in src/fs/gitignore.ts: it bounds the patterns, so that no match can hang.' };
const PICOMATCH = { name: 'picomatch', message: 'Compile globs with src/tools/glob.ts: it runs them on RE2, so that no match can hang.' };
const VSCODE = { name: 'vscode', message: 'Only src/vscode/ and src/extension.ts may import vscode.' };
// Every read, write, listing and stat of a file goes through the file-system gate (src/fs/), which
// resolves where a path really is, refuses anything but regular files and caps what it reads.
const GATE = 'Go through the file-system gate in src/fs/ (paths, stat, read, lines, list, walk, write, lock): it alone touches the file system.';
const FILE_SYSTEM = [
  ...['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'write-file-atomic', 'proper-lockfile', 'fdir'].map((name) => ({ name, message: GATE })),
  // Whether a path is inside a folder is decided once, in src/fs/paths.ts (relativeWithin, within,
  // isInside): hand-written copies of that test once read `..notes` as outside and `../x` as inside.
  ...['path', 'node:path'].map((name) => ({ name, importNames: ['relative'], message: 'Containment is decided in src/fs/paths.ts: use relativeWithin / within / isInside.' })),
];

// A shell word becomes a path twice: as text (`cd` without -P, how people write rules) and where
// the kernel walks it (a program opening `t/../x` leaves t's target). path.join and path.resolve
// give the first while looking like the second: a glob and a `~/` word each let `link/..` out of
// the workspace that way. In the modules that read Bash words, every join names which it means.
const WORD_JOIN = 'Join a shell word with kernelJoin (where a program that opens it lands) or lexicalJoin (text, as cd -L sees it) from src/fs/paths.ts.';
const WORD_MODULES = ['src/permissions/bashPaths.ts', 'src/permissions/bashProc.ts', 'src/permissions/bash/**/*.ts'];
const WORD_PATHS = [
  ...FILE_SYSTEM.filter((r) => r.name !== 'path' && r.name !== 'node:path'),
  ...['path', 'node:path'].map((name) => ({ name, importNames: ['relative', 'join', 'resolve', 'normalize'], message: `${WORD_JOIN} Containment is decided in src/fs/paths.ts.` })),
];
const DEFAULT_EXPORT = { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' };

// The layer rule is the reason this file exists: domain code must run in plain Node,
// so only the VS Code shell may import 'vscode', and shared/ (used by the webview too)
// may import neither node nor vscode.
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'test-results/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', DEFAULT_EXPORT],
    },
  },
  // gray-matter evaluates `---js` frontmatter: only src/base/frontmatter.ts, which refuses
  // every evaluating engine, may import it. (A later block replaces this rule's options for
  // the files it matches, so each block below repeats the gray-matter entry.)
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    ignores: ['src/base/frontmatter.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [GRAY_MATTER] }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/vscode/**', 'src/extension.ts', 'src/base/frontmatter.ts', 'src/fs/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [VSCODE, GRAY_MATTER, IGNORE, PICOMATCH, ...FILE_SYSTEM] }],
    },
  },
  {
    files: WORD_MODULES,
    // Loads the grammar's wasm files; no shell word becomes a path there.
    ignores: ['src/permissions/bash/parser.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [VSCODE, GRAY_MATTER, IGNORE, PICOMATCH, ...WORD_PATHS] }],
      'no-restricted-syntax': [
        'error',
        DEFAULT_EXPORT,
        { selector: 'MemberExpression[object.name=/^(path|posix|win32)$/][property.name=/^(join|resolve|normalize|relative)$/]', message: WORD_JOIN },
      ],
    },
  },
  // The one module that compiles globs (onto RE2).
  {
    files: ['src/tools/glob.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [VSCODE, GRAY_MATTER, IGNORE, ...FILE_SYSTEM] }],
    },
  },
  {
    files: ['src/fs/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [VSCODE, GRAY_MATTER] }],
    },
  },
  {
    files: ['src/vscode/**/*.ts', 'src/extension.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [GRAY_MATTER, IGNORE, PICOMATCH, ...FILE_SYSTEM] }],
    },
  },
  {
    files: ['src/base/frontmatter.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [VSCODE, ...FILE_SYSTEM] }],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [GRAY_MATTER], patterns: [{ group: ['vscode', 'node:*', 'fs', 'path', 'os', 'child_process'], message: 'shared/ runs in the webview too.' }] }],
    },
  },
  // One JSON reader, bounded in nesting before it parses (src/fs/jsonText.ts): a value 20,000
  // levels deep overflowed the stack in whatever read it next (pass 37 B4).
  {
    files: ['src/**/*.ts'],
    ignores: ['src/fs/jsonText.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'JSON', property: 'parse', message: 'Use parseJson or parseJsonText from src/fs/jsonText.ts: they bound nesting first.' }],
    },
  },
  // The places that put the program together read top to bottom: a closure that uses a name made
  // further down is late binding (the agent's parts once reached each other through `self.agent!`,
  // the extension's handlers through names declared below them).
  {
    files: ['src/extension.ts', 'src/agent/createAgent.ts', 'src/cli/runPrompt.ts', 'src/sessions/sessionDriver.ts'],
    rules: {
      '@typescript-eslint/no-use-before-define': ['error', { functions: false, classes: true, variables: true, typedefs: false, enums: true, ignoreTypeReferences: true }],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'test/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', fetch: 'readonly', AbortSignal: 'readonly', AbortController: 'readonly' } },
  },
);
