// Programs whose work is to start another program (env, nice, sudo, sh -c…): what they start is
// what runs, so the approval must judge that program, and the variables `env K=V` sets, as it
// judges the command itself. Deny by default: a wrapper whose options are not read here is still
// named, with the program it starts left unknown.

/** What a wrapper starts, read from its arguments. */
export interface Unwrapped {
  wrapper: string;
  /** The program it starts by name or path, with that program's own arguments. */
  program?: string;
  args: string[];
  /** A shell command line it runs (`sh -c …`, `npx -c …`, `env -S …` with quotes or `$`). */
  script?: string;
  /** A script file the shell reads (`bash srv.sh`). */
  scriptFile?: string;
  /** Variables it sets (`env K=V`) or unsets (`env -u K`), by name. */
  env: Record<string, string>;
  unset: string[];
  /** The folder it changes to first (`env -C DIR`). */
  chdir?: string;
  /** It starts a program this reader cannot name from its arguments. */
  unknown?: true;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash', 'posh']);

/** Options that take a value, per wrapper with a known grammar (short letters; long names in full). */
const GRAMMAR: Record<string, { short: string; long: string[]; operandsBefore?: number }> = {
  nice: { short: 'n', long: ['adjustment'] },
  nohup: { short: '', long: [] },
  timeout: { short: 'sk', long: ['signal', 'kill-after'], operandsBefore: 1 },
  xargs: { short: 'aEeIiLlnPsd', long: ['arg-file', 'eof', 'replace', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'delimiter', 'process-slot-var'] },
  sudo: { short: 'CDghpRrTtUu', long: ['close-from', 'chdir', 'group', 'host', 'prompt', 'chroot', 'role', 'command-timeout', 'type', 'other-user', 'user'] },
  doas: { short: 'uC', long: [] },
  stdbuf: { short: 'ioe', long: ['input', 'output', 'error'] },
  setsid: { short: '', long: [] },
  command: { short: '', long: [] },
  exec: { short: 'a', long: [] },
  nsenter: { short: 'tSGwrmuinpUC', long: ['target', 'setuid', 'setgid', 'wd', 'root', 'mount', 'uts', 'ipc', 'net', 'pid', 'user', 'cgroup'] },
  chrt: { short: 'T', long: ['sched-runtime', 'sched-deadline', 'sched-period'], operandsBefore: 1 },
  ionice: { short: 'cnP', long: ['class', 'classdata', 'pid', 'pgid', 'uid'] },
  taskset: { short: '', long: [], operandsBefore: 1 },
  time: { short: 'fo', long: ['format', 'output'] },
  prlimit: { short: 'p', long: ['pid'] },
  numactl: { short: 'CimNpP', long: [] },
  unshare: { short: 'S', long: ['setuid', 'setgid', 'wd', 'root'] },
  flock: { short: 'wEc', long: ['timeout', 'conflict-exit-code', 'command'], operandsBefore: 1 },
  chroot: { short: '', long: ['userspec', 'groups'], operandsBefore: 1 },
  caffeinate: { short: 'tw', long: [] },
  catchsegv: { short: '', long: [] },
  faketime: { short: 'fm', long: [], operandsBefore: 1 },
  proxychains: { short: 'f', long: [] },
  proxychains4: { short: 'f', long: [] },
  torsocks: { short: 'uapP', long: [] },
  strace: { short: 'eoOpPsSuIEbaX', long: [] },
  ltrace: { short: 'eoOpPsSuaAnlLXxw', long: [] },
  valgrind: { short: '', long: [] },
  firejail: { short: '', long: [] },
  bwrap: { short: '', long: [] },
  'systemd-run': { short: 'puHMEs', long: ['unit', 'property', 'slice', 'uid', 'gid', 'nice', 'working-directory', 'setenv', 'description', 'host', 'machine'] },
  cgexec: { short: 'g', long: [] },
  runuser: { short: 'ugGcs', long: ['user', 'group', 'supp-group', 'command', 'shell', 'session-command'] },
  su: { short: 'cgGs', long: ['command', 'group', 'supp-group', 'shell', 'session-command'] },
  script: { short: 'cEIoOT', long: ['command', 'echo', 'log-in', 'log-out', 'log-io', 'log-timing', 'output-limit'] },
  watch: { short: 'dn', long: ['differences', 'interval'] },
  arch: { short: '', long: [] },
};
/** Of those, the ones that run a shell command line, not a program and its arguments. */
const RUNS_LINE: Record<string, string[]> = { su: ['c', 'command', 'session-command'], runuser: ['c', 'command', 'session-command'], script: ['c', 'command'], flock: ['c', 'command'], watch: [''] };

/** The name a command runs as: its last path part, without a Windows extension. */
export const baseName = (command: string) =>
  (command.split(/[/\\]/).pop() ?? '')
    .replace(/\.(exe|cmd|bat|com)$/i, '')
    .toLowerCase();

export function isWrapper(command: string): boolean {
  const b = baseName(command);
  return b === 'env' || b === 'busybox' || b === 'npx' || b === 'cmd' || b === 'powershell' || b === 'pwsh' || SHELLS.has(b) || b in GRAMMAR;
}

/** What `command args…` starts, when the command is a wrapper; undefined for any other program. */
export function unwrap(command: string, args: readonly string[]): Unwrapped | undefined {
  const wrapper = baseName(command);
  const base = { wrapper, args: [], env: {}, unset: [] };
  if (wrapper === 'env') return readEnv(args);
  if (wrapper === 'busybox') {
    if (!args.length) return undefined;
    // Its first argument is one of its own commands; those that start another program are judged as they are.
    const inner = unwrap(args[0]!, args.slice(1));
    return inner ? { ...inner, wrapper: `busybox ${inner.wrapper}` } : undefined;
  }
  if (wrapper === 'npx') {
    const i = args.findIndex((a) => a === '-c' || a === '--call' || a.startsWith('--call='));
    if (i < 0) return undefined;
    return { ...base, script: args[i]!.startsWith('--call=') ? args[i]!.slice(7) : (args[i + 1] ?? '') };
  }
  if (wrapper === 'cmd' || wrapper === 'powershell' || wrapper === 'pwsh') return { ...base, script: args.join(' ') };
  if (SHELLS.has(wrapper)) return readShell(wrapper, args);
  const g = GRAMMAR[wrapper];
  if (!g) return undefined;
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a.startsWith('--')) {
      const name = a.slice(2).split('=')[0]!;
      if (RUNS_LINE[wrapper]?.includes(name)) return { ...base, script: a.includes('=') ? a.slice(a.indexOf('=') + 1) : (args[i + 1] ?? '') };
      if (!a.includes('=') && g.long.includes(name)) i++;
      continue;
    }
    if (wrapper === 'sudo' && /^[^-=][^=]*=/.test(a)) {
      // sudo sets NAME=VALUE for the program, as env does.
      env[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      // A run of short flags; the first that takes a value takes the rest of the word, or the next word.
      for (let j = 1; j < a.length; j++) {
        if (RUNS_LINE[wrapper]?.includes(a[j]!)) return { ...base, script: a.slice(j + 1) || (args[i + 1] ?? '') };
        if (g.short.includes(a[j]!)) {
          if (j === a.length - 1) i++;
          break;
        }
      }
      continue;
    }
    break;
  }
  i += g.operandsBefore ?? 0;
  if (RUNS_LINE[wrapper]?.includes('')) return { ...base, script: args.slice(i).join(' ') };
  // Options of tools read loosely (valgrind, firejail, bwrap take `--opt value` freely): the program is not named for sure.
  const loose = g.short === '' && g.long.length === 0 && !['nohup', 'setsid', 'command', 'catchsegv', 'arch'].includes(wrapper);
  if (i >= args.length) return { ...base, env, unknown: true };
  return { ...base, env, program: args[i]!, args: args.slice(i + 1), ...(loose ? { unknown: true as const } : {}) };
}

/** GNU and BSD env: -i, -0, -v, -u NAME, -C DIR, -S STRING, --, then NAME=VALUE…, then the program. */
function readEnv(args: readonly string[]): Unwrapped {
  const out: Unwrapped = { wrapper: 'env', args: [], env: {}, unset: [] };
  const words = [...args];
  let i = 0;
  const value = (a: string, long: string) => (a.startsWith(`--${long}=`) ? a.slice(long.length + 3) : a.startsWith('--') ? words[++i] : a.length > 2 ? a.slice(2) : words[++i]);
  for (; i < words.length; i++) {
    const a = words[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-') continue;
    if (/^(-u|--unset)/.test(a)) out.unset.push(value(a, 'unset') ?? '');
    else if (/^(-C|--chdir)/.test(a)) out.chdir = value(a, 'chdir') ?? '';
    else if (/^(-S|--split-string)/.test(a)) {
      const line = value(a, 'split-string') ?? '';
      // Its own quoting, escapes and ${VAR}: read as plain words only when it has none.
      if (/["'\\$]/.test(line)) return { ...out, script: line };
      words.splice(i + 1, 0, ...line.split(/[ \t\n]+/).filter(Boolean));
    } else if (/^-[iv0P]/.test(a) || /^--(ignore-environment|null|debug|block-signal|default-signal|ignore-signal|list-signal-handling)/.test(a)) {
      if (/^-P/.test(a) && a.length === 2) i++;
    } else if (a.startsWith('-')) return { ...out, unknown: true };
    else break;
  }
  for (; i < words.length && /^[^=]+=/.test(words[i]!); i++) {
    const a = words[i]!;
    out.env[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
  }
  if (i >= words.length) return out;
  return { ...out, program: words[i]!, args: words.slice(i + 1) };
}

/** `sh -c LINE`, `bash -lc LINE`, `bash FILE`: the line or the file the shell runs. */
function readShell(wrapper: string, args: readonly string[]): Unwrapped {
  const base = { wrapper, args: [], env: {}, unset: [] };
  let line = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--' || a === '-') return args[i + 1] === undefined ? { ...base, unknown: true } : { ...base, scriptFile: args[i + 1]! };
    if (/^--/.test(a)) {
      if (/^--(rcfile|init-file)$/.test(a)) i++;
      continue;
    }
    if (/^[-+]/.test(a)) {
      if (/^[-+][a-zA-Z]*c/.test(a)) line = true;
      if (/^[-+][a-zA-Z]*[oO]$/.test(a)) i++;
      continue;
    }
    return line ? { ...base, script: a } : { ...base, scriptFile: a };
  }
  // `sh -s` or a bare shell reads its commands from stdin: nothing named here runs.
  return { ...base, unknown: true };
}
