// Places a command reaches without naming them: links in a folder it walks, in the folder where
// it writes files it names itself, in a folder it serves (see bash/walkLinks.ts), and the places
// its configuration names (bash/tsconfig.ts).
import { commandBase, spellsOption, type SimpleCommand } from './bash/commands';
import { isFolderSync } from '../fs/stat';
import { linkLeavingFolder, linkTakingOwnNames, mayFollowLinks, servedFolder } from './bash/walkLinks';
import { kernelJoin, realLocation, within as isWithin } from '../fs/paths';
import type { PathFinding, PathScope } from './pathScope';
import { isTscSource, tsconfigFinding } from './bash/tsconfig';
import { ctagsConfigFinding, javacProcessorFinding, npmrcFinding, pythonModuleFinding, rustToolchainFinding, type ConfigPlace } from './bash/runnerConfig';

/** A link leading outside the workspace inside a folder a command walks and may follow links in, or a folder too big to look through. */
export function walkFinding(command: string, folder: string, inside: (real: string) => boolean): PathFinding | undefined {
  const leaving = linkLeavingFolder(folder, inside);
  if (leaving === undefined) return undefined;
  if (leaving === 'too big') return { behavior: 'ask', reason: `${command} is given the folder ${folder}, too big to look through for links out of the workspace, and may follow links while it walks it.`, path: folder };
  return { behavior: 'ask', reason: `${command} is given the folder ${folder}, which holds ${leaving}, a link leading outside the workspace, and may follow it while it walks the folder.`, path: folder };
}

/** A folder served to the network holding a link leading outside the workspace, whose files the server hands out. */
export function servedFinding(commands: readonly SimpleCommand[], folders: readonly string[], scope: PathScope): PathFinding | undefined {
  const roots = scope.readRoots.map(realLocation);
  for (const c of commands) {
    const served = servedFolder(c);
    if (served === undefined) continue;
    const name = commandBase(c.words[0]!);
    if (served === '\0') return { behavior: 'ask', reason: `${name} serves a folder known only when it runs.` };
    for (const f of folders) {
      const walked = walkFinding(name, realLocation(kernelJoin(f, served)), (r) => roots.some((root) => isWithin(root, r)));
      if (walked) return { ...walked, reason: `${walked.reason} A server hands out what its links lead to.` };
    }
  }
  return undefined;
}

/** A link in the folder a program writing files it names itself runs in, which such a write would follow. */
export function defaultNamesFinding(commands: readonly SimpleCommand[], folders: readonly string[], scope: PathScope): PathFinding | undefined {
  const roots = scope.writeRoots.map(realLocation);
  const hit = linkTakingOwnNames(commands, folders.map(realLocation), (r) => roots.some((root) => isWithin(root, r)));
  if (!hit) return undefined;
  if (hit.link === 'too big') return { behavior: 'ask', reason: `${hit.name} may write files it names itself in ${hit.folder}, too big to look through for links leading outside the workspace.`, write: true };
  return { behavior: 'ask', reason: `${hit.name} may write files it names itself in ${hit.folder}, which holds ${hit.link}, a link leading outside the workspace that such a write would follow.`, path: hit.link, write: true };
}

/** A program whose configuration in the workspace names places outside it (tsc's tsconfig.json) or steers it (a package runner's .npmrc). */
export function configFinding(commands: readonly SimpleCommand[], folders: readonly string[], scope: PathScope): PathFinding | undefined {
  const read = scope.readRoots.map(realLocation);
  const write = scope.writeRoots.map(realLocation);
  const inside = (r: string) => read.some((root) => isWithin(root, r));
  // A file or folder a Read rule covers, or a folder holding such files, is as closed to a
  // program's settings file as a place outside (pass 52 C1).
  const readable = (r: string) => !scope.deniedBy?.(r, false) && !scope.askedBy?.(r, false) && !(isFolderSync(r) && scope.deniedInside?.(r, false));
  // tsc's places: a file a Read rule covers is closed (pass 55 H1: a model-written tsconfig copied a
  // denied config/secrets.json into its outDir); what a folder holds is judged by the sources in the
  // whole workspace (closedSource), since imports reach past any folder a config names.
  const within = {
    closedSource: () => scope.deniedInside?.(realLocation(scope.cwd), false, isTscSource),
    mayRead: (r: string) => inside(r) && !scope.deniedBy?.(r, false) && !scope.askedBy?.(r, false),
    mayWrite: (r: string) => write.some((root) => isWithin(root, r)) && !scope.deniedBy?.(r, true) && !scope.askedBy?.(r, true),
  };
  const place: ConfigPlace = { inside, readable };
  for (const c of commands) {
    for (const f of folders) {
      const why = tsconfigFinding(c, f, within) ?? npmrcFinding(c, f, scope.home, place) ?? ctagsConfigFinding(c, f) ?? pythonModuleFinding(c, f) ?? javacProcessorFinding(c, f) ?? rustToolchainFinding(c, f, place);
      if (why) return { behavior: 'ask', reason: `${why}.` };
    }
  }
  return undefined;
}

/**
 * A program that may follow links, told to recurse with no folder given, walks the one it runs in
 * (`ctags -R`, as `grep -R x` does): a committed link there leads it anywhere (pass 32 C2).
 */
export function recursesHereFinding(commands: readonly SimpleCommand[], folders: readonly string[], scope: PathScope): PathFinding | undefined {
  const roots = scope.readRoots.map(realLocation);
  for (const c of commands) {
    if (!mayFollowLinks(c) || !recursesWithoutFolder(c, folders)) continue;
    const name = commandBase(c.words[0]!);
    for (const f of folders) {
      const walked = walkFinding(name, realLocation(f), (r) => roots.some((root) => isWithin(root, r)));
      if (walked) return walked;
    }
  }
  return undefined;
}

function recursesWithoutFolder(c: SimpleCommand, folders: readonly string[]): boolean {
  const words = c.words.slice(1);
  const recurses = words.some((w) => w !== undefined && (spellsOption(w, '--recursive') || spellsOption(w, '--recurse') || /^-[A-Za-z]*R[A-Za-z]*$/.test(w)));
  if (!recurses) return false;
  // A folder among the words is walked and judged already.
  return !words.some((w) => w !== undefined && !w.startsWith('-') && folders.some((f) => isFolderSync(kernelJoin(f, w))));
}
