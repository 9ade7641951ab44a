import { join } from 'node:path';
import { readRegularFile } from '../../fs/read';
import { existsSync } from '../../fs/stat';
import { Language, Parser, type Tree } from 'web-tree-sitter';

/** The two wasm files: the tree-sitter runtime and the Bash grammar. Both ship in npm packages. */
const RUNTIME_WASM = 'web-tree-sitter.wasm';
const GRAMMAR_WASM = 'tree-sitter-bash.wasm';

/** Both wasm files are a few megabytes; a file far past this is not one of them. */
const WASM_MAX_BYTES = 64 * 1024 * 1024;

async function readWasm(file: string): Promise<Uint8Array> {
  const r = await readRegularFile(file, WASM_MAX_BYTES);
  if (!r.ok) throw new Error(`cannot read ${file}: ${r.error?.message ?? r.reason}`);
  return new Uint8Array(r.bytes);
}

/** Longer commands are not parsed (they ask): parse time grows with length, and no one reads them. */
export const MAX_COMMAND_CHARS = 20_000;
/** A parse that takes longer than this is cancelled (and the command asks). */
const PARSE_BUDGET_MS = 250;

export interface WasmLocations {
  runtime: string;
  grammar: string;
}

export type ParserStatus =
  | { state: 'loading' }
  | { state: 'ready' }
  | { state: 'failed'; error: string };

/**
 * The bundles (dist/extension.js, dist/cli.js) find the wasm files that scripts/build.mjs copied
 * to dist/wasm/; running from source (tests, tsx) finds them in node_modules.
 */
export function defaultWasmLocations(): WasmLocations {
  const bundled = { runtime: join(__dirname, 'wasm', RUNTIME_WASM), grammar: join(__dirname, 'wasm', GRAMMAR_WASM) };
  if (existsSync(bundled.runtime) && existsSync(bundled.grammar)) return bundled;
  try {
    return {
      runtime: require.resolve(`web-tree-sitter/${RUNTIME_WASM}`),
      grammar: require.resolve(`tree-sitter-bash/${GRAMMAR_WASM}`),
    };
  } catch {
    throw new Error(`${GRAMMAR_WASM} and ${RUNTIME_WASM} are neither in ${join(__dirname, 'wasm')} nor in node_modules`);
  }
}

/**
 * Loads tree-sitter-bash once, in the background. Until it is ready a caller can wait for it;
 * if it cannot load, `status()` says why and every command is treated as unparseable.
 */
export class BashParser {
  private parser: Parser | undefined;
  private current: ParserStatus = { state: 'loading' };
  private loading: Promise<ParserStatus> | undefined;

  constructor(private readonly locate: () => WasmLocations = defaultWasmLocations) {}

  status(): ParserStatus {
    return this.current;
  }

  /** Starts loading on the first call; every call gets the same promise, which never rejects. */
  ready(): Promise<ParserStatus> {
    this.loading ??= this.load().then(
      (parser) => {
        this.parser = parser;
        this.current = { state: 'ready' };
        return this.current;
      },
      (e: unknown) => {
        this.current = { state: 'failed', error: e instanceof Error ? e.message : String(e) };
        return this.current;
      },
    );
    return this.loading;
  }

  private async load(): Promise<Parser> {
    const where = this.locate();
    // The runtime is handed its bytes, so it never looks for a file or a URL of its own.
    await initRuntime(await readWasm(where.runtime));
    const language = await Language.load(await readWasm(where.grammar));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  }

  /**
   * Parses one command and hands the tree to `use`; the tree's wasm memory is freed afterwards,
   * so `use` must copy out what it needs. undefined: not ready, too long, or cancelled.
   */
  withTree<T>(source: string, use: (tree: Tree) => T): T | undefined {
    if (!this.parser || source.length > MAX_COMMAND_CHARS) return undefined;
    const started = performance.now();
    const tree = this.parser.parse(source, null, { progressCallback: () => performance.now() - started > PARSE_BUDGET_MS });
    if (!tree) return undefined;
    try {
      return use(tree);
    } finally {
      tree.delete();
    }
  }
}

let runtime: Promise<void> | undefined;

/** The runtime is one per process (tree-sitter keeps it in module state): started once. */
function initRuntime(bytes: Uint8Array): Promise<void> {
  runtime ??= Parser.init({ wasmBinary: bytes }).catch((e: unknown) => {
    runtime = undefined;
    throw e;
  });
  return runtime;
}

let shared: BashParser | undefined;

/** The process-wide parser: loading starts when it is first asked for. */
export function sharedBashParser(): BashParser {
  shared ??= new BashParser();
  void shared.ready();
  return shared;
}
