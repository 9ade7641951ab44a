// A stdio transport whose server leads a process group of its own. The SDK's StdioClientTransport
// spawns the server into ours, so `npx some-server` leaves its node child behind when the npx
// process is killed, and a CLI stopped by a signal cannot end it. Here the group is tracked the
// way Bash commands are (base/processGroups), so ending the session, or the CLI's exit handler,
// ends every process a server started. The framing is the SDK's own (ReadBuffer, serializeMessage).
import type { ChildProcess } from 'node:child_process';
import spawn from 'cross-spawn';
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { IDisposable } from '../../base/lifecycle';
import { trackProcessGroup } from '../../base/processGroups';

/** One message may be large (a 5 MB result, JSON-escaped); more than this is refused, not buffered. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** How long a server gets to exit after SIGTERM before its group is killed. */
const TERM_GRACE_MS = 1000;

export interface GroupStdioOptions {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  onStderr(text: string): void;
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child: ChildProcess | undefined;
  private tracked: IDisposable | undefined;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  private closing = false;
  /** How the process ended, for the message that names it. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(private readonly opts: GroupStdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const posix = process.platform !== 'win32';
      const child = spawn(this.opts.command, [...this.opts.args], {
        env: this.opts.env,
        cwd: this.opts.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // Its own group on POSIX, so the whole tree can be signalled; Windows has no groups.
        detached: posix,
        windowsHide: true,
      });
      this.child = child;
      child.once('error', (err) => {
        if (!this.tracked) reject(err);
        else this.onerror?.(err);
      });
      child.once('spawn', () => {
        if (posix && child.pid) this.tracked = trackProcessGroup(child.pid);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
      });
      child.once('close', () => {
        this.tracked?.dispose();
        this.tracked = undefined;
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (let m = this.buffer.readMessage(); m !== null; m = this.buffer.readMessage()) this.onmessage?.(m);
        } catch (err) {
          this.onerror?.(err instanceof Error ? err : new Error(String(err)));
          void this.close();
        }
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => this.opts.onStderr(text));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error('the server process is not running'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Closes stdin, then SIGTERM to the group, then SIGKILL: a server that ignores both still ends. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closing) return;
    this.closing = true;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    this.signal(child, 'SIGTERM');
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), TERM_GRACE_MS).unref());
    if ((await Promise.race([closed, timer])) === 'timeout') {
      this.signal(child, 'SIGKILL');
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, TERM_GRACE_MS).unref())]);
    }
    this.buffer.clear();
  }

  private signal(child: ChildProcess, signal: NodeJS.Signals): void {
    try {
      if (process.platform !== 'win32' && child.pid) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // the group is gone already
    }
  }
}
