// Times activate() of the production bundle in plain Node against a minimal stand-in for
// the editor API: enough surface for activation, no behaviour. The figure measures our
// own start-up work (bundle load + composition), which is what we control.
import Module from 'node:module';
import { join } from 'node:path';

function fakeVscode(): unknown {
  const disposable = { dispose: () => undefined };
  const emitter = class {
    event = () => disposable;
    fire() {}
    dispose() {}
  };
  const any: Record<string, unknown> = new Proxy(
    {},
    { get: (_t, key) => (key === 'then' ? undefined : () => disposable) },
  );
  return {
    EventEmitter: emitter,
    Disposable: class { constructor(private fn: () => void) {} dispose() { this.fn(); } },
    ThemeColor: class { constructor(public id: string) {} },
    MarkdownString: class { constructor(public value: string) {} },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ProgressLocation: { Notification: 15 },
    Uri: { joinPath: () => ({}), from: () => ({}), file: (p: string) => ({ fsPath: p }) },
    window: {
      createOutputChannel: () => ({ info() {}, warn() {}, error() {}, dispose() {} }),
      createStatusBarItem: () => ({ show() {}, dispose() {} }),
      registerWebviewViewProvider: () => disposable,
      showInformationMessage: async () => undefined,
    },
    commands: { registerCommand: () => disposable, executeCommand: async () => undefined },
    workspace: {
      workspaceFolders: [{ uri: { fsPath: process.cwd() } }],
      isTrusted: true,
      getConfiguration: () => ({ get: () => undefined }),
      onDidGrantWorkspaceTrust: () => disposable,
      onDidChangeConfiguration: () => disposable,
      registerTextDocumentContentProvider: () => disposable,
      fs: any,
    },
    languages: any,
    env: any,
  };
}

export async function benchActivate(root: string): Promise<Record<string, number>> {
  const stub = fakeVscode();
  const load = (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load;
  (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load = (req, ...rest) =>
    req === 'vscode' ? stub : load(req, ...rest);
  const context = {
    subscriptions: [] as { dispose(): void }[],
    extensionUri: {},
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
