import { constants as os } from 'node:os';
import { findProgram } from './programs';

// A process that leaves its process group (`setsid`), or whose parent exits first (a double fork,
// `nohup … &` in a shell that then exits, a daemon), is handed to init: killing the group the
// command started no longer reaches it. On Linux a "child subreaper" receives such orphans
// instead of init. Node cannot make itself one (prctl is not exposed), so each command runs under
// a small supervisor that is: Perl, which every mainstream Linux distribution installs (Debian's
// perl-base is essential) and whose `syscall` reaches prctl without a compiler (no module is
// loaded: POSIX alone would cost ten milliseconds a command; WNOHANG is 1 on Linux). The supervisor
//   - marks itself a subreaper, so every process the command starts, however it detaches, stays
//     its descendant;
//   - asks for SIGTERM when the agent dies (PR_SET_PDEATHSIG), so even `kill -9` of the agent
//     ends the command's processes;
//   - reports the command's exit status on fd 3 (its stdout and stderr belong to the command);
//   - gives the command the owner marker (processGroups.ts) but does not carry it itself, so the
//     marker sweep at exit never kills it before it has ended its tree;
//   - on SIGTERM, kills its children until none are left (orphans arrive as children as their
//     parents die), then exits; otherwise it exits when the last of them has.
const SUPERVISOR = String.raw`
use strict;
my ($nr, $agent, $mark, @cmd) = @ARGV;
syscall($nr, 36, 1);
syscall($nr, 1, 15);
sub children {
  my @kids;
  my @files = glob("/proc/$$/task/*/children");
  if (@files) {
    for my $f (@files) { open(my $h, '<', $f) or next; local $/; push @kids, split(' ', <$h> // '') }
  } else {
    for my $s (glob('/proc/[0-9]*/stat')) {
      open(my $h, '<', $s) or next; my $t = <$h> // '';
      push @kids, $1 if $t =~ /^(\d+) .*\) \S+ (\d+) / && $2 == $$;
    }
  }
  return @kids;
}
sub reap_all {
  for (1 .. 2000) {
    my @kids = children();
    kill('KILL', @kids) if @kids;
    my $r;
    do { $r = waitpid(-1, 1) } while ($r > 0);
    last if $r == -1;
    select(undef, undef, undef, 0.005);
  }
}
my $stop = sub { reap_all(); exit(143) };
$SIG{TERM} = $SIG{HUP} = $SIG{INT} = $stop;
$stop->() if getppid() != $agent;
my $pid = fork();
exit(126) unless defined $pid;
if ($pid == 0) {
  if (open(my $fd3, '>&=', 3)) { close($fd3) }
  $SIG{$_} = 'DEFAULT' for qw(TERM HUP INT);
  my ($k, $v) = split(/=/, $mark, 2);
  $ENV{$k} = $v;
  exec { $cmd[0] } @cmd;
  exit(127);
}
open(STDOUT, '>', '/dev/null'); open(STDERR, '>', '/dev/null');
open(my $status, '>&=', 3) or exit(125);
while (1) {
  my $k = waitpid(-1, 0);
  last if $k == -1;
  next unless $k == $pid;
  my $w = $?;
  syswrite($status, ($w & 127) ? 'signal ' . ($w & 127) . "\n" : 'exit ' . ($w >> 8) . "\n");
  close($status);
}
exit(0);
`;

/** prctl's system call number, by Node's name for the CPU architecture. */
const PRCTL: Partial<Record<string, number>> = { x64: 157, arm64: 167, riscv64: 167, loong64: 167, arm: 172, ia32: 172, s390x: 172, ppc64: 171 };

export interface Launch {
  file: string;
  args: string[];
  /** Runs under the supervisor: its status arrives on fd 3, and SIGTERM to it ends the whole tree. */
  supervised: boolean;
}

/**
 * How to start `file args` so that nothing it starts can outlive the agent (see SUPERVISOR).
 * `marker` (NAME=value) is put in the command's environment.
 */
export function supervisedLaunch(file: string, args: string[], marker: string): Launch {
  const nr = PRCTL[process.arch];
  if (process.platform !== 'linux' || nr === undefined) return { file, args, supervised: false };
  const perl = findProgram('perl');
  // A shell that is not there is left to fail at spawn, where the caller falls back to another.
  if (!perl || (!file.includes('/') && !findProgram(file))) return { file, args, supervised: false };
  return { file: perl, args: ['-e', SUPERVISOR, String(nr), String(process.pid), marker, file, ...args], supervised: true };
}

/** The supervisor's report on fd 3, as Node reports an exit. */
export function parseStatus(line: string): { code: number | null; signal: NodeJS.Signals | null } | undefined {
  const m = /^(exit|signal) (\d+)$/.exec(line.trim());
  if (!m) return undefined;
  const n = Number(m[2]);
  if (m[1] === 'exit') return { code: n, signal: null };
  const name = Object.entries(os.signals).find(([, v]) => v === n)?.[0] as NodeJS.Signals | undefined;
  return { code: null, signal: name ?? 'SIGKILL' };
}
