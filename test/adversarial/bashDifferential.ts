// A differential fuzzer for the Bash permission checks (found findings 1-3): commands built from
// fragments of shell syntax are judged under a few allow rules, and each one allowed is run by
// real bash (`bash -x -c`) in an empty folder whose PATH holds only shims for the allowed
// programs. Any other program bash tries, or any file that appears, means tree-sitter-bash and
// bash read the command differently. Not part of the suite (it runs bash thousands of times):
//   node --import tsx test/adversarial/bashDifferential.ts [seed] [cases]
// Prints one JSON line per divergence and a summary on stderr; exits 1 when it found any.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BashChecker } from '../../src/permissions/bash/checker';
import { bashEngine } from './support';

const ALLOWED = ['echo', 'ls', 'cat', 'git', 'npm'];
const RULES = ['Bash(echo:*)', 'Bash(ls:*)', 'Bash(cat:*)', 'Bash(git status)', 'Bash(npm test:*)'];
const STARTS = ['echo ', 'ls ', 'cat ', 'npm test ', 'git status'];
const FRAGMENTS = [
  ' ', ' ', ' ', 'x', 'a', '-', "'", '"', '\\', '\n', '\\\n', ';', '|', '&', '#', '{', '}', '$', '(', ')', '`', '<', '>', 'touch', 'T',
  '=', '$(', '${', '!', '[', ']', '*', '?', '\t', '~', '%', ',', "$'", '$"', '\\x27', '\\047', '\\n', 'EOF', '<<', '<<<', '>&', '&>',
  '2', '1', '/dev/null', '@', ':', '.', 'eval', 'exec', 'if', 'then', 'fi', 'case', 'esac', ';;', '((', '))', '[[', ']]', 'coproc',
  'time', '-c', 'bash', '<<EOF\n', '\nEOF\n', "<<'EOF'\n", '<<-EOF\n\t', '<<E"O"F\n', '$x', '${x}', '$@', '2>&1', '&&', '||', '|&',
  '\u00a0', '\u2028', 'é', "$'\\''", '\r',
];

function xorshift(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

async function main(): Promise<number> {
  const seed = Number(process.argv[2] ?? 1);
  const cases = Number(process.argv[3] ?? 5000);
  const checker = new BashChecker();
  await checker.ready();
  const root = mkdtempSync(join(tmpdir(), 'tl-bash-diff-'));
  const shims = join(root, 'bin');
  mkdirSync(shims);
  for (const name of ALLOWED) {
    writeFileSync(join(shims, name), '#!/bin/sh\nexit 0\n');
    chmodSync(join(shims, name), 0o755);
  }
  const { decide } = bashEngine(root, { allow: RULES }, checker);
  const rnd = xorshift(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  let allowed = 0;
  let found = 0;
  for (let i = 0; i < cases; i++) {
    let command = pick(STARTS);
    const n = 1 + Math.floor(rnd() * 8);
    for (let k = 0; k < n; k++) command += pick(FRAGMENTS);
    if (rnd() < 0.5) command += ' touch T';
    if (decide(command).behavior !== 'allow') continue;
    allowed++;
    const dir = join(root, 'w');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    // stdin must not be a socket: Debian's bash reads ~/.bashrc when it looks like a remote shell.
    const r = spawnSync('/bin/bash', ['-x', '-c', command], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: shims, HOME: root }, encoding: 'utf8', timeout: 2000 });
    const stderr = r.stderr ?? '';
    // bash ignores PS4 from the environment when run as root, so read its default "+ " prefix.
    const ran = stderr.split('\n').filter((l) => /^\++ /.test(l)).map((l) => l.replace(/^\++ /, '').split(' ')[0]!.replace(/^'|'$/g, ''));
    const other = ran.filter((name) => !ALLOWED.includes(name) && !/^[A-Za-z_]+=/.test(name));
    const files = readdirSync(dir);
    if (other.length || files.length || /command not found/.test(stderr)) {
      found++;
      console.log(JSON.stringify({ command, ran: other, files, stderr: stderr.slice(0, 300) }));
    }
  }
  rmSync(root, { recursive: true, force: true });
  console.error(`seed ${seed}: ${cases} commands, ${allowed} allowed, ${found} run something the rules do not name`);
  return found ? 1 : 0;
}

void main().then((code) => {
  process.exitCode = code;
});
