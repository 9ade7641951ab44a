// Repositories whose own git config names programs, as a cloned repository can: each mechanism
// arms one way git could be made to run a program, writes a marker file when it runs, and says
// which plain git command does run it (so a test can show the trap is live before showing that
// Threadline's git does not spring it).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface HostileRepo {
  root: string;
  /** The work tree: a repository with two commits, `a.txt` and `b.txt`. */
  ws: string;
  /** An executable that records that it ran as a marker named `name`, passes stdin through, and fails. */
  program(name: string): string;
  /** The markers written so far. */
  ran(): string[];
  clear(): void;
  git(...args: string[]): string;
  /** Gives the tracked files a new mtime with the same bytes, so the next status must hash them (through any filter). */
  touch(): void;
}

const ID = ['-c', 'user.name=Evil', '-c', 'user.email=evil@example.invalid'];

export function hostileRepo(): HostileRepo {
  const root = mkdtempSync(join(tmpdir(), 'tl-evilgit-'));
  const ws = join(root, 'ws');
  const markers = join(root, 'markers');
  mkdirSync(markers);
  mkdirSync(ws);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } }).toString();
  git('init', '-q', '-b', 'main');
  writeFileSync(join(ws, 'a.txt'), 'alpha\n');
  writeFileSync(join(ws, 'b.txt'), 'beta\n');
  git('add', '.');
  git(...ID, 'commit', '-q', '-m', 'first');
  writeFileSync(join(ws, 'b.txt'), 'beta two\n');
  git('add', '.');
  git(...ID, 'commit', '-q', '-m', 'second');
  let stamp = Date.now() / 1000 + 100;
  return {
    root,
    ws,
    program(name) {
      const p = join(root, `prog-${name}`);
      writeFileSync(p, `#!/bin/sh\ntouch '${join(markers, name)}'\ncat\nexit 1\n`);
      chmodSync(p, 0o755);
      return p;
    },
    ran: () => readdirSync(markers),
    clear: () => {
      for (const m of readdirSync(markers)) rmSync(join(markers, m));
    },
    git,
    touch() {
      stamp += 10;
      for (const f of ['a.txt', 'b.txt']) if (existsSync(join(ws, f))) utimesSync(join(ws, f), stamp, stamp);
    },
  };
}

/** A commit on HEAD carrying a signature header of the given kind (never valid; verifying it runs the program). */
function fakeSignedHead(r: HostileRepo, kind: 'PGP SIGNATURE' | 'SSH SIGNATURE' | 'SIGNED MESSAGE'): void {
  const tree = r.git('rev-parse', 'HEAD^{tree}').trim();
  const parent = r.git('rev-parse', 'HEAD').trim();
  const body = `tree ${tree}\nparent ${parent}\nauthor Evil <e@e> 1700000000 +0000\ncommitter Evil <e@e> 1700000000 +0000\ngpgsig -----BEGIN ${kind}-----\n \n AAAA\n -----END ${kind}-----\n\nsigned release\n`;
  const sha = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: r.ws, input: body }).toString().trim();
  r.git('update-ref', 'refs/heads/main', sha);
}

export interface Mechanism {
  name: string;
  /** Installs the setting; the program it names writes the marker `name`. */
  arm(r: HostileRepo): void;
  /** A plain git command (as argv) that runs the program in this repository, or a shell line for one needing a terminal. */
  proof: { git: string[]; input?: string } | { sh: string };
}

const STATUS = { git: ['--no-optional-locks', 'status', '--short'] };
const LOG = { git: ['log', '--oneline', '-n', '5'] };

export const MECHANISMS: Mechanism[] = [
  {
    name: 'filter-clean',
    arm: (r) => {
      writeFileSync(join(r.ws, '.gitattributes'), '*.txt filter=evil\n');
      r.git('config', 'filter.evil.clean', r.program('filter-clean'));
    },
    proof: STATUS,
  },
  {
    name: 'filter-process',
    arm: (r) => {
      writeFileSync(join(r.ws, '.gitattributes'), '*.txt filter=evil\n');
      r.git('config', 'filter.evil.process', r.program('filter-process'));
    },
    proof: STATUS,
  },
  {
    name: 'filter-odd-name',
    // A driver name with "=" and "." in it: `-c filter.a=b.c.clean=` would be misread.
    arm: (r) => {
      mkdirSync(join(r.ws, '.git', 'info'), { recursive: true });
      writeFileSync(join(r.ws, '.git', 'info', 'attributes'), '*.txt filter=a=b.c\n');
      r.git('config', 'filter.a=b.c.clean', r.program('filter-odd-name'));
    },
    proof: STATUS,
  },
  {
    name: 'filter-included',
    // The driver is defined in a file the config includes, not in .git/config itself.
    arm: (r) => {
      writeFileSync(join(r.ws, '.gitattributes'), '*.txt filter=inc\n');
      writeFileSync(join(r.ws, '.git', 'evil.inc'), `[filter "inc"]\n\tclean = ${r.program('filter-included')}\n`);
      r.git('config', 'include.path', 'evil.inc');
    },
    proof: STATUS,
  },
  {
    name: 'filter-submodule',
    // A submodule's git reads the submodule's own config, which the parent's never listed.
    arm: (r) => {
      const sub = join(r.root, 'subsrc');
      mkdirSync(sub);
      const g = (...a: string[]) => execFileSync('git', a, { cwd: sub, stdio: 'ignore' });
      g('init', '-q', '-b', 'main');
      writeFileSync(join(sub, 's.txt'), 's\n');
      g('add', '.');
      g(...ID, 'commit', '-q', '-m', 's');
      r.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'sub');
      r.git(...ID, 'commit', '-q', '-m', 'sub');
      execFileSync('git', ['config', '-f', join(r.ws, '.git', 'modules', 'sub', 'config'), 'filter.subevil.clean', r.program('filter-submodule')]);
      writeFileSync(join(r.ws, 'sub', '.gitattributes'), '*.txt filter=subevil\n');
      utimesSync(join(r.ws, 'sub', 's.txt'), Date.now() / 1000 + 50, Date.now() / 1000 + 50);
    },
    proof: STATUS,
  },
  {
    name: 'gpg-openpgp',
    arm: (r) => {
      fakeSignedHead(r, 'PGP SIGNATURE');
      r.git('config', 'log.showSignature', 'true');
      r.git('config', 'gpg.program', r.program('gpg-openpgp'));
    },
    proof: LOG,
  },
  {
    name: 'gpg-ssh',
    arm: (r) => {
      fakeSignedHead(r, 'SSH SIGNATURE');
      writeFileSync(join(r.root, 'allowed_signers'), '');
      r.git('config', 'log.showSignature', 'true');
      r.git('config', 'gpg.ssh.allowedSignersFile', join(r.root, 'allowed_signers'));
      r.git('config', 'gpg.ssh.program', r.program('gpg-ssh'));
    },
    proof: LOG,
  },
  {
    name: 'gpg-x509',
    arm: (r) => {
      fakeSignedHead(r, 'SIGNED MESSAGE');
      r.git('config', 'log.showSignature', 'true');
      r.git('config', 'gpg.x509.program', r.program('gpg-x509'));
    },
    proof: LOG,
  },
  {
    name: 'fsmonitor',
    arm: (r) => {
      r.git('config', 'core.fsmonitor', r.program('fsmonitor'));
    },
    proof: STATUS,
  },
  {
    name: 'hook',
    // Runs when git writes the index, which a plain `git status` does after a touch.
    arm: (r) => {
      const hook = join(r.ws, '.git', 'hooks', 'post-index-change');
      mkdirSync(join(r.ws, '.git', 'hooks'), { recursive: true });
      writeFileSync(hook, `#!/bin/sh\nexec '${r.program('hook')}' </dev/null\n`);
      chmodSync(hook, 0o755);
    },
    proof: { git: ['status', '--short'] },
  },
  {
    name: 'hooks-path',
    arm: (r) => {
      const dir = join(r.root, 'hooks');
      mkdirSync(dir);
      writeFileSync(join(dir, 'post-index-change'), `#!/bin/sh\nexec '${r.program('hooks-path')}' </dev/null\n`);
      chmodSync(join(dir, 'post-index-change'), 0o755);
      r.git('config', 'core.hooksPath', dir);
    },
    proof: { git: ['status', '--short'] },
  },
  {
    name: 'pager',
    arm: (r) => {
      r.git('config', 'core.pager', r.program('pager'));
      r.git('config', 'pager.status', r.program('pager'));
    },
    // A pager starts only on a terminal: `script` gives git one.
    proof: { sh: 'script -qc "git log -n 1" /dev/null' },
  },
  {
    name: 'diff-external',
    arm: (r) => {
      writeFileSync(join(r.ws, 'b.txt'), 'beta changed\n');
      r.git('config', 'diff.external', r.program('diff-external'));
    },
    proof: { git: ['diff'] },
  },
  {
    name: 'diff-textconv',
    arm: (r) => {
      writeFileSync(join(r.ws, '.gitattributes'), '*.txt diff=evil\n');
      writeFileSync(join(r.ws, 'b.txt'), 'beta changed\n');
      r.git('config', 'diff.evil.textconv', r.program('diff-textconv'));
    },
    proof: { git: ['diff'] },
  },
  {
    name: 'ssh-command',
    arm: (r) => {
      r.git('remote', 'add', 'origin', 'ssh://git@example.invalid/x.git');
      r.git('config', 'core.sshCommand', r.program('ssh-command'));
    },
    proof: { git: ['ls-remote', 'origin'] },
  },
  {
    name: 'upload-pack',
    arm: (r) => {
      r.git('remote', 'add', 'origin', r.ws);
      r.git('config', 'remote.origin.uploadpack', r.program('upload-pack'));
    },
    proof: { git: ['ls-remote', 'origin'] },
  },
  {
    name: 'credential-helper',
    arm: (r) => {
      r.git('config', 'credential.helper', `!'${r.program('credential-helper')}'`);
    },
    proof: { git: ['credential', 'fill'], input: 'protocol=https\nhost=example.invalid\n\n' },
  },
];

/** Runs a mechanism's proof with plain git, ignoring how git ends (the programs fail on purpose). */
export function springWithPlainGit(r: HostileRepo, m: Mechanism): void {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
  try {
    if ('sh' in m.proof) execFileSync('sh', ['-c', m.proof.sh], { cwd: r.ws, stdio: 'ignore', env, timeout: 10_000 });
    else execFileSync('git', m.proof.git, { cwd: r.ws, stdio: ['pipe', 'ignore', 'ignore'], env, timeout: 10_000, ...(m.proof.input ? { input: m.proof.input } : {}) });
  } catch {
    // The program failed, and git with it: the marker is what counts.
  }
}
