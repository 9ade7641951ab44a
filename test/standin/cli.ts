// Runs the Messages API stand-in as its own process, for e2e tests (VS Code in another
// process points its base URL here) and for trying the extension by hand without a key.
//   node --import tsx test/standin/cli.ts [--port N] [--script turns.json] [--api-key K] [--no-bodies]
//                                        [--context-window N]
import { readFileSync } from 'node:fs';
import { startStandin, type ScriptedTurn } from './server';

interface Args {
  port: number;
  script?: string;
  apiKey?: string;
  noBodies?: boolean;
  contextWindow?: number;
}

function parseArgs(argv: string[]): Args {
  const out: Args = { port: 0 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    const need = () => {
      if (value === undefined) throw new Error(`${arg} needs a value`);
      i++;
      return value;
    };
    if (arg === '--port') {
      const n = Number(need());
      if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`bad --port ${value}`);
      out.port = n;
    } else if (arg === '--script') out.script = need();
    else if (arg === '--api-key') out.apiKey = need();
    else if (arg === '--no-bodies') out.noBodies = true;
    else if (arg === '--context-window') {
      const n = Number(need());
      if (!Number.isInteger(n) || n < 1) throw new Error(`bad --context-window ${value}`);
      out.contextWindow = n;
    }
    else throw new Error(`unknown argument ${arg}`);
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const standin = await startStandin({
    port: args.port,
    ...(args.apiKey !== undefined ? { apiKey: args.apiKey } : {}),
    ...(args.noBodies ? { recordBodies: false } : {}),
    ...(args.contextWindow !== undefined ? { contextWindow: args.contextWindow } : {}),
    log: (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
  });
  if (args.script) {
    const turns: unknown = JSON.parse(readFileSync(args.script, 'utf8'));
    if (!Array.isArray(turns)) throw new Error(`${args.script}: expected a JSON array of turns`);
    standin.enqueue(...(turns as ScriptedTurn[]));
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    standin.close().then(
      () => process.exit(0),
      (err: unknown) => {
        // Scripted turns no request matched: the script's test was wrong, say which turns.
        process.stderr.write(`stand-in: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The parent waits for exactly this line before it talks to the server.
  process.stdout.write(`READY ${standin.url}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`stand-in: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
