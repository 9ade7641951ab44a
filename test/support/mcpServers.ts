import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The tests' MCP server (the SDK's server side); see its header for the flags. */
export const MCP_TEST_SERVER = join(import.meta.dirname, 'mcp', 'server.mjs');

/** A Claude Code server entry that runs the test server over stdio with these flags. */
export function stdioServer(...args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [MCP_TEST_SERVER, ...args] };
}

/** Writes `{ "mcpServers": servers }` to a temp file and returns its path (for --mcp-config). */
export function mcpConfigFile(servers: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tl-mcp-cfg-')), 'servers.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

/** The test server over streamable HTTP; `close()` ends it. */
export async function httpServer(...args: string[]): Promise<{ url: string; process: ChildProcess; close(): void }> {
  const child = spawn(process.execPath, [MCP_TEST_SERVER, '--http', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the HTTP test server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { url, process: child, close: () => void child.kill('SIGKILL') };
}

/** Whether a process with this pid still runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids of running processes whose command line contains `marker` (Linux /proc). */
export async function pidsWith(marker: string): Promise<number[]> {
  const { readdirSync, readFileSync } = await import('node:fs');
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const cmd = readFileSync(`/proc/${e}/cmdline`, 'utf8');
      if (cmd.includes(marker)) out.push(Number(e));
    } catch {
      // gone
    }
  }
  return out;
}

type Connect = Awaited<ReturnType<typeof import('../../src/mcp/sdkLoader').loadConnect>>;
type ConnectOptions = Parameters<Connect>[0];

/** What a test connection needs besides its server: this folder and environment, no callbacks of interest. */
export function quietConnection(name: string, spec: ConnectOptions['spec'], extra: Partial<ConnectOptions> = {}): ConnectOptions {
  return { name, spec, cwd: process.cwd(), baseEnv: process.env, clientVersion: 't', timeoutMs: 10_000, onStderr() {}, onToolsChanged() {}, onClosed() {}, ...extra };
}
