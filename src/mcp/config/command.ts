// Where a stdio server's command resolves: the one answer the approval text shows and the spawn
// runs, so what the user approved is the program that starts.
//   /abs/prog          itself
//   ~ or ~/prog        the user's home, as a shell expands it (Claude Code's users write `~/…` in
//                      .mcp.json and mean their home; left unexpanded, the spawn ran the clone's
//                      own folder named "~")
//   ~name/prog         refused: another user's home is not looked up
//   dir/prog, ./prog   the server's start folder (the workspace, for a workspace's server)
//   prog               the absolute folders of PATH only: a relative entry ("", ".", ".bin") is
//                      the start folder again, so a clone would choose the program by shipping it
// A program another one starts (env, nice, sh…) is looked up as that one's execvp does, relative
// PATH entries included, since nothing replaces its name by a full path. A path through /proc or
// /dev/fd (`/proc/self/cwd/…`) is the starting process's own, so where it leads is not known here.
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { isExecutableFileSync } from '../../fs/stat';
import { isInside, passesThroughProc } from '../../fs/paths';

export interface CommandPlace {
  home: string;
  /** The workspace folder: a program inside it is the workspace's choice, whatever the command reads like. */
  workspace: string;
  /** Where the server starts (a relative command is taken from here). */
  startDir: string;
  /** The PATH the server runs with. */
  path: string | undefined;
  platform?: NodeJS.Platform;
  /** Windows: the extensions a bare name may take. */
  pathext?: string;
  /**
   * Search PATH's relative entries too, against the start folder, as execvp does: for a program
   * a wrapper starts by name, which the spawn does not replace by the full path.
   */
  asExecvp?: boolean;
}

export type ResolvedCommand =
  | {
      ok: true;
      program: string;
      inWorkspace: boolean;
      how: 'absolute' | 'home' | 'relative' | 'path';
      /** The path goes through /proc or /dev/fd: the started process, not this one, decides where it leads. */
      viaProc?: boolean;
    }
  | { ok: false; error: string };

/** `~` and `~/…` as the user's home; undefined for anything else (`~name/…` included). */
export function expandHome(p: string, home: string): string | undefined {
  if (p === '~') return home;
  if (/^~[/\\]/.test(p)) return join(home, p.slice(2));
  return undefined;
}

/** A `~name/…` path: another user's home, which nothing here looks up. */
export function isOtherUsersHome(p: string): boolean {
  return /^~[^/\\]/.test(p);
}

function searchPath(name: string, place: CommandPlace): string | undefined {
  const win = (place.platform ?? process.platform) === 'win32';
  const exts = win && !/\.[^\\/.]+$/.test(name) ? ['', ...(place.pathext ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  for (const entry of (place.path ?? '').split(win ? ';' : delimiter)) {
    if (!place.asExecvp && (!entry || !isAbsolute(entry))) continue;
    const dir = resolve(place.startDir, entry);
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (isExecutableFileSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The program a command runs, or why there is none to run. */
export function resolveCommand(command: string, place: CommandPlace): ResolvedCommand {
  const found = (program: string, how: 'absolute' | 'home' | 'relative' | 'path'): ResolvedCommand => {
    // Judged by how the kernel walks it, so a link of the workspace to /proc/self/cwd counts too.
    const viaProc = passesThroughProc(program);
    return { ok: true, program, inWorkspace: isInside(place.workspace, program), how, ...(viaProc ? { viaProc } : {}) };
  };
  if (command.includes('\0')) return { ok: false, error: 'its command contains a NUL character' };
  const home = expandHome(command, place.home);
  if (home !== undefined) return found(home, 'home');
  if (isOtherUsersHome(command)) return { ok: false, error: `its command ${JSON.stringify(command)} names another user's home folder, which Threadline does not look up; write the full path` };
  if (isAbsolute(command)) return found(command, 'absolute');
  if (/[/\\]/.test(command)) return found(resolve(place.startDir, command), 'relative');
  const onPath = searchPath(command, place);
  if (!onPath) return { ok: false, error: `its command "${command}" was not found in the ${place.asExecvp ? '' : 'absolute '}folders of PATH${place.asExecvp ? '' : " (a relative entry of PATH is not searched: it would be the server's own folder)"}` };
  return found(onPath, 'path');
}

/** The PATH of a server's environment: its own entry (Windows names it in any case), else the one it inherits. */
export function pathOf(env: Record<string, string | undefined> | undefined, base: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  const pick = (e: Record<string, string | undefined> | undefined) => {
    if (!e) return undefined;
    if (platform !== 'win32') return e.PATH;
    const k = Object.keys(e).find((x) => x.toUpperCase() === 'PATH');
    return k ? e[k] : undefined;
  };
  return pick(env) ?? pick(base);
}

/**
 * A stdio spec, its variables filled in, made to run what the approval showed: the command as
 * the program resolveCommand finds (so the spawn does no lookup of its own), the folder with `~`
 * expanded the same way (`"cwd": "~/srv"` is the user's, not the clone's folder named "~").
 */
export function placeCommand<S extends { command?: string; cwd?: string; env?: Record<string, string> }>(spec: S, at: { home: string; workspace: string; startDir: string; env: NodeJS.ProcessEnv }): { ok: true; spec: S } | { ok: false; error: string } {
  let startDir = at.startDir;
  if (spec.cwd !== undefined) {
    if (isOtherUsersHome(spec.cwd)) return { ok: false, error: `its "cwd" ${JSON.stringify(spec.cwd)} names another user's home folder, which Threadline does not look up; write the full path` };
    startDir = resolve(at.startDir, expandHome(spec.cwd, at.home) ?? spec.cwd);
  }
  const r = resolveCommand(spec.command ?? '', { home: at.home, workspace: at.workspace, startDir, path: pathOf(spec.env, at.env) });
  if (!r.ok) return r;
  return { ok: true, spec: { ...spec, command: r.program, ...(spec.cwd !== undefined ? { cwd: startDir } : {}) } };
}
