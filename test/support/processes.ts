import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Live processes (exited ones not yet reaped left out) whose command line `argv`, and working
 * folder, `match` accepts; read from /proc, so Linux only. A process gone meanwhile is skipped.
 */
export function liveProcesses(match: (argv: string[], cwd: () => string) => boolean): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\u0000');
      // The list ends with a NUL: the empty last piece is no argument.
      if (argv.at(-1) === '') argv.pop();
      if (!match(argv, () => readlinkSync(`/proc/${name}/cwd`))) continue;
      if (readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0] === 'Z') continue;
      out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
