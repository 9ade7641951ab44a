import { delimiter, isAbsolute, join } from 'node:path';
import { isExecutableFileSync } from '../fs/stat';

// Which program a name starts, for every process the agent itself starts and for the PATH its
// children inherit. A relative PATH entry (`node_modules/.bin`, `./bin`, or an empty one, which
// means `.`) is read against whatever folder a process runs in: the workspace, a cloned
// repository. Through one, the repository's own `bash` or `perl` ran while a command was only
// being judged, before any rule was asked, and its `ls` ran under `Bash(ls:*)`. So names are
// looked up on absolute entries only, and children get a PATH of absolute entries only.

const isPathKey = (k: string) => (process.platform === 'win32' ? /^path$/i.test(k) : k === 'PATH');

/** A PATH value with its relative and empty entries left out. */
export function absolutePath(value: string): string {
  return value
    .split(delimiter)
    .filter((dir) => dir !== '' && isAbsolute(dir))
    .join(delimiter);
}

/** `env` with every PATH entry that is not absolute left out (the object is changed and returned). */
export function withAbsolutePath<T extends Record<string, string | undefined>>(env: T): T {
  for (const k of Object.keys(env)) {
    const v = env[k];
    if (isPathKey(k) && v !== undefined) (env as Record<string, string>)[k] = absolutePath(v);
  }
  return env;
}

const found = new Map<string, string | null>();

/** The absolute file `name` starts from PATH's absolute entries, or undefined when none has it. */
export function findProgram(name: string, path: string = process.env.PATH ?? ''): string | undefined {
  const key = `${name}\0${path}`;
  let hit = found.get(key);
  if (hit === undefined) {
    hit = null;
    const names = process.platform === 'win32' && !/\.[^\\/.]+$/.test(name) ? [`${name}.exe`, `${name}.cmd`, name] : [name];
    search: for (const dir of absolutePath(path).split(delimiter)) {
      if (!dir) continue;
      for (const n of names) {
        const candidate = join(dir, n);
        if (isExecutableFileSync(candidate)) {
          hit = candidate;
          break search;
        }
      }
    }
    found.set(key, hit);
  }
  return hit ?? undefined;
}
