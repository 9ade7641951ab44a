// A stdio transport whose server leads a process group of its own, under the supervisor Bash
// commands run under where there is one (base/subreaper.ts). The SDK's StdioClientTransport
// spawns the server into ours, so `npx some-server` leaves its node child behind when the npx
// process is killed, and a CLI stopped by a signal cannot end it. A group alone misses what left
// it (setsid, a double fork: a server's daemon); the supervisor is a subreaper, so ending it ends
// every process the server started. The group is tracked the way Bash commands are
// (base/processGroups), so ending the session, or the CLI's exit handler, ends them all. The
// framing is the SDK's own (ReadBuffer, serializeMessage).
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import spawn from 'cross-spawn';
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { IDisposable } from '../../base/lifecycle';
import { ownerMarker, trackProcessGroup } from '../../base/processGroups';
import { inOwnUserNamespace } from '../../base/userNamespace';
import { parseStatus, supervisedLaunch } from '../../base/subreaper';
import { readCappedSync } from '../../fs/read';

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
  private supervised = false;
  private serverEnded: (() => void) | undefined;
  /** How the process ended, for the message that names it. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(private readonly opts: GroupStdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const posix = process.platform !== 'win32';
      const marker = ownerMarker();
      // In a user namespace of its own, as a Bash command is: code that gets into a server (a debugger
      // a command opened in it with SIGUSR1, pass 89 C1) is refused the agent's /proc by the kernel.
      const how = posix ? inOwnUserNamespace(supervisedLaunch(this.opts.command, [...this.opts.args], `${marker.name}=${marker.value}`), this.opts.env.PATH) : { file: this.opts.command, args: [...this.opts.args], supervised: false };
      this.supervised = how.supervised;
      // The supervisor gives the owner marker to the server only (the exit sweep must not kill it before it has ended its tree).
      const child = spawn(how.file, how.args, {
        env: how.supervised ? this.opts.env : { ...this.opts.env, [marker.name]: marker.value },
        cwd: this.opts.cwd,
        // fd 3: the supervisor's report of how the server itself ended.
        stdio: how.supervised ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
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
        if (posix && child.pid) this.tracked = trackProcessGroup(child.pid, { supervised: how.supervised });
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exit ??= { code, signal };
      });
      (child.stdio[3] as Readable | undefined)?.on('data', (chunk: Buffer) => {
        const status = parseStatus(chunk.toString('utf8'));
        if (!status) return;
        // The server ended: what it left running (a daemon) ends with it, and the supervisor then exits.
        this.exit = status;
        this.serverEnded?.();
        this.signal(child, 'SIGTERM', true);
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

  /**
   * Closes stdin, then SIGTERM, then SIGKILL: a server that ignores both still ends. Under a
   * supervisor the server is given the grace to exit on its own, and then the supervisor is
   * asked to end the tree (it kills every process the server started, also those that left the group).
   */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closing) return;
    this.closing = true;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const grace = () => new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), TERM_GRACE_MS).unref());
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    if (this.supervised) {
      if (this.exit === undefined) {
        // The server gets SIGTERM and its grace, as without a supervisor; the supervisor's own SIGTERM kills outright.
        const ended = new Promise<void>((resolve) => (this.serverEnded = resolve));
        for (const pid of childrenOf(child.pid)) this.signalPid(pid, 'SIGTERM');
        await Promise.race([ended, grace()]);
      }
      this.signal(child, 'SIGTERM', true);
    } else this.signal(child, 'SIGTERM');
    if ((await Promise.race([closed, grace()])) === 'timeout') {
      this.signal(child, 'SIGKILL');
      await Promise.race([closed, grace()]);
    }
    this.buffer.clear();
  }

  /** To the whole group, or (`leader`) to the supervisor alone, which then ends the tree itself. */
  private signal(child: ChildProcess, signal: NodeJS.Signals, leader = false): void {
    if (process.platform !== 'win32' && child.pid) this.signalPid(leader ? child.pid : -child.pid, signal);
    else child.kill(signal);
  }

  private signalPid(pid: number, signal: NodeJS.Signals): void {
    try {
      process.kill(pid, signal);
    } catch {
      // gone already
    }
  }
}

/** The supervisor's children (the server): Linux lists them in /proc, where alone there is a supervisor. */
function childrenOf(pid: number | undefined): number[] {
  if (!pid) return [];
  const r = readCappedSync(`/proc/${pid}/task/${pid}/children`, { maxBytes: 64 * 1024 });
  return r.ok ? r.bytes.toString('utf8').trim().split(/\s+/).filter(Boolean).map(Number) : [];
}
