// Times activate() of the production bundle in plain Node against a minimal stand-in for
// the editor API: enough surface for activation, no behaviour. The figure measures our
// own start-up work (bundle load + composition), which is what we control.
import { execFileSync } from 'node:child_process';
import Module from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Anything the composition root touches that is not listed below answers with a harmless value:
 * callable, constructible, with any property. So a new API use (a ThemeIcon, an event) cannot
 * crash the benchmark, while settings, folders and storage answer as an empty editor would.
 */
function auto(): unknown {
  const target = function () {};
  return new Proxy(target, {
    get: (_t, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : auto()),
    apply: () => auto(),
    construct: () => auto() as object,
    set: () => true,
  });
}

function withFallback<T extends object>(known: T): T {
  return new Proxy(known, { get: (t, key) => (key in t ? (t as Record<string | symbol, unknown>)[key] : key === 'then' ? undefined : auto()) });
}

/** Every name `vscode` exports, from its type declarations (the bundle copies them one by one). */
function vscodeExportNames(root: string): string[] {
  const dts = readFileSync(join(root, 'node_modules/@types/vscode/index.d.ts'), 'utf8');
  return [...new Set([...dts.matchAll(/^\t(?:export )?(?:class|enum|namespace|const|function) (\w+)/gm)].map((m) => m[1]!))];
}

function fakeVscode(root: string): unknown {
  const disposable = { dispose: () => undefined };
  const every = Object.fromEntries(vscodeExportNames(root).map((n) => [n, auto()]));
  return withFallback({
    ...every,
    Uri: withFallback({ file: (p: string) => ({ fsPath: p, path: p }), joinPath: (u: { fsPath: string }, ...parts: string[]) => ({ fsPath: [u.fsPath, ...parts].join('/') }) }),
    window: withFallback({}),
    commands: withFallback({ executeCommand: async () => undefined }),
    workspace: withFallback({
      workspaceFolders: [{ uri: { fsPath: process.cwd() } }],
      isTrusted: true,
      getConfiguration: () => ({ get: () => undefined, inspect: () => undefined }),
      onDidGrantWorkspaceTrust: () => disposable,
      onDidChangeConfiguration: () => disposable,
    }),
  });
}

/** One cold load and activation, in this process. */
export async function activateOnce(root: string): Promise<{ bundleLoadMs: number; activateMs: number }> {
  const stub = fakeVscode(root);
  const load = (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load;
  (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load = (req, ...rest) =>
    req === 'vscode' ? stub : load(req, ...rest);
  const context = {
    subscriptions: [] as { dispose(): void }[],
    extensionUri: {},
    extension: { packageJSON: { version: '0.0.0-bench' } },
    secrets: { get: async () => undefined, store: async () => undefined, onDidChange: () => ({ dispose() {} }) },
    globalStorageUri: { fsPath: '/tmp/threadline-bench-global' },
    storageUri: { fsPath: '/tmp/threadline-bench-ws' },
    workspaceState: { get: () => undefined, update: async () => undefined },
    globalState: { get: () => undefined, update: async () => undefined },
  };
  const t0 = process.hrtime.bigint();
  // The bundle is CommonJS, as VS Code loads it; require is the faithful way to load it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ext = require(join(root, 'dist/extension.js')) as { activate(c: unknown): unknown };
  const t1 = process.hrtime.bigint();
  await ext.activate(context);
  const t2 = process.hrtime.bigint();
  for (const d of context.subscriptions) d.dispose();
  return {
    bundleLoadMs: Math.round(Number(t1 - t0) / 1e4) / 100,
    activateMs: Math.round(Number(t2 - t1) / 1e4) / 100,
  };
}

/** How many fresh processes load and activate the bundle: one sample is at the mercy of whatever else the machine is doing. */
const RUNS = 5;

/**
 * Cold start-up as the editor meets it, once per fresh process (the module cache and the JIT
 * start empty each time); the median of the runs is the figure, the slowest is shown beside it.
 */
export async function benchActivate(root: string): Promise<Record<string, number>> {
  const runs: { bundleLoadMs: number; activateMs: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench/activateChild.ts'), root], { cwd: root, encoding: 'utf8' });
    runs.push(JSON.parse(out.trim().split('\n').at(-1)!) as { bundleLoadMs: number; activateMs: number });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  return {
    bundleLoadMs: median(runs.map((r) => r.bundleLoadMs)),
    activateMs: median(runs.map((r) => r.activateMs)),
    activateSlowestMs: Math.max(...runs.map((r) => r.activateMs)),
  };
}
