// Folder trust in the CLI: `threadline trust [DIR] | --list | --revoke [DIR]`, `--trust` for one
// run, and a question when a terminal is there to answer it. An untrusted folder's settings may
// restrict but not grant, and no git runs there (see src/permissions/projectTrust.ts).
import { resolve } from 'node:path';
import { printable } from '../base/printable';
import { describeWithheld, type WithheldGrant } from '../permissions/projectTrust';
import { realFolder, TrustFileError, TrustStore } from '../permissions/trustStore';
import { cliStateDir } from '../sessions/paths';
import type { CliIo } from './io';

export type TrustHow = 'remembered' | 'flag' | 'answered' | 'no';

export interface CliTrust {
  /** The folder's real path (as given when it is not a folder). */
  folder: string;
  trusted: boolean;
  how: TrustHow;
}

export interface TrustQuestion {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** --trust: trusted for this run, nothing remembered. */
  flag: boolean;
  /**
   * What the folder's own files would grant if it were trusted (`withheldGrants(sources, false)`,
   * plus any other project source such as MCP servers): the question is asked, and the notice
   * printed, only when this is not empty.
   */
  wouldGrant: readonly WithheldGrant[];
  io: CliIo;
  /** Present only when a person can answer (stdin and stderr are terminals). */
  confirm?(question: string): Promise<boolean>;
  /** Say on stderr, in one line, what an untrusted folder's files were not allowed to grant. */
  notice: boolean;
}

/**
 * Whether this run trusts its folder: --trust, a remembered trust, or a yes to the question asked
 * when the folder's files would grant something and a terminal is there. Otherwise not, and the
 * one-line notice names what was ignored (nothing is printed when nothing was).
 */
export async function decideTrust(q: TrustQuestion): Promise<CliTrust> {
  const folder = (await realFolder(q.cwd)) ?? resolve(q.cwd);
  if (q.flag) return { folder, trusted: true, how: 'flag' };
  const store = new TrustStore(cliStateDir(q.env));
  const known = await store.isTrusted(folder);
  if (known.problem) q.io.err(`threadline: ${printable(known.problem)}; no folder is trusted until it is fixed or removed\n`);
  if (known.trusted) return { folder, trusted: true, how: 'remembered' };
  const withheld = q.wouldGrant;
  if (!withheld.length) return { folder, trusted: false, how: 'no' };
  if (q.confirm && !known.problem) {
    const yes = await q.confirm(`threadline: ${printable(folder)} is not trusted. Trusting it applies ${describeWithheld(withheld)}, and lets git run there.\nTrust this folder from now on? [y/N] `);
    if (yes) {
      try {
        await store.trust(folder);
        q.io.err(`threadline: trusted ${printable(folder)} (threadline trust --revoke to undo)\n`);
      } catch (err) {
        q.io.err(`threadline: trusted for this run only: ${err instanceof Error ? err.message : String(err)}\n`);
      }
      return { folder, trusted: true, how: 'answered' };
    }
  }
  if (q.notice) q.io.err(`threadline: folder not trusted; ignored ${describeWithheld(withheld)} (run threadline trust to apply)\n`);
  return { folder, trusted: false, how: 'no' };
}

/** A line for `threadline context`: where trust stands and what it changes. */
export function describeTrust(t: CliTrust): string {
  const where = printable(t.folder);
  if (t.how === 'flag') return `Folder: ${where}, trusted for this run (--trust).`;
  if (t.trusted) return `Folder: ${where}, trusted (threadline trust --revoke to undo).`;
  return `Folder: ${where}, not trusted: its settings may restrict but not grant, and no git runs for the snapshot (threadline trust to trust it).`;
}

export interface TrustCommandArgs {
  action: 'trust' | 'list' | 'revoke';
  dir: string;
  json: boolean;
}

/** `threadline trust [DIR]`, `threadline trust --list [--json]`, `threadline trust --revoke [DIR]`. */
export async function trustCommand(args: TrustCommandArgs, env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const store = new TrustStore(cliStateDir(env));
  try {
    if (args.action === 'list') {
      const folders = await store.list();
      if (args.json) io.out(`${JSON.stringify({ file: store.file, folders }, null, 2)}\n`);
      else if (!folders.length) io.out('No trusted folders.\n');
      else for (const f of folders) io.out(`${printable(f.path)}${f.trustedAt ? `  (since ${f.trustedAt.slice(0, 10)})` : ''}\n`);
      return 0;
    }
    const real = await realFolder(args.dir);
    if (args.action === 'revoke') {
      const path = real ?? resolve(args.dir);
      const { was } = await store.revoke(path);
      io.out(was ? `No longer trusted: ${printable(path)}\n` : `${printable(path)} was not trusted.\n`);
      return 0;
    }
    if (!real) {
      io.err(`threadline: not a folder: ${printable(args.dir)} (see --help)\n`);
      return 2;
    }
    const { already } = await store.trust(real);
    io.out(
      already
        ? `${printable(real)} was already trusted.\n`
        : `Trusted ${printable(real)}: its .claude/settings.json and .claude/settings.local.json may now grant permissions, its MCP servers may start (project ones once approved), and git runs there for the snapshot.\n`,
    );
    return 0;
  } catch (err) {
    if (!(err instanceof TrustFileError)) throw err;
    io.err(`threadline: ${printable(err.message)}; fix or remove it\n`);
    return 1;
  }
}
