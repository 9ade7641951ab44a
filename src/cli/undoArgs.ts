// The arguments of `threadline rewind`, `diff` and `compact`: which session, which message, and
// which of the mutually exclusive actions, each misplaced flag refused by name.
import { UsageError, type Values } from './usage';

export type SessionPick = { latest: true } | { id: string };

export type RewindMode = 'code' | 'conversation' | 'both';

/** `threadline rewind [ID --code|--conversation|--both [--dry-run] [--force]] [--json]` */
export interface RewindArgs {
  command: 'rewind';
  cwd: string;
  json: boolean;
  session: SessionPick;
  /** A message id (or a restore's checkpoint id), or a unique start of one; none: list them. */
  target: string | undefined;
  mode: RewindMode | undefined;
  dryRun: boolean;
  force: boolean;
  trust: boolean;
}

/** `threadline diff [--json]`: every file the session changed, against its first snapshot. */
export interface DiffArgs {
  command: 'diff';
  cwd: string;
  json: boolean;
  session: SessionPick;
  trust: boolean;
}

export type CompactAction = { kind: 'all'; focus?: string } | { kind: 'partial'; direction: 'from' | 'upTo'; target: string; focus?: string } | { kind: 'undo'; target: string } | { kind: 'list' };

/** `threadline compact [--from ID | --up-to ID] [--focus TEXT] [--dry-run]`, `--list`, `--undo ID`. */
export interface CompactArgs {
  command: 'compact';
  cwd: string;
  json: boolean;
  session: SessionPick;
  action: CompactAction;
  dryRun: boolean;
  model: string | undefined;
  contextWindow: number | undefined;
  trust: boolean;
}


/** The parsed flags of one of the Undo commands, checked against what that command takes. */
export function undoArgs(cmd: 'rewind' | 'diff' | 'compact', rest: string[], v: Values, cwd: string, model: string | undefined, contextWindow: number | undefined): RewindArgs | DiffArgs | CompactArgs {
  const session: SessionPick = typeof v.resume === 'string' ? { id: v.resume } : { latest: true };
  const json = Boolean(v.json);
  const trust = Boolean(v.trust);
  const misplaced = (flags: readonly string[]) => {
    const f = flags.find((x) => v[x] !== undefined);
    if (f) throw new UsageError(`--${f} does not go with threadline ${cmd}`);
  };
  if (cmd === 'diff') {
    if (rest.length) throw new UsageError(`unexpected arguments after diff: ${rest.join(' ')}`);
    misplaced(['code', 'conversation', 'both', 'dry-run', 'force', 'from', 'up-to', 'focus', 'undo']);
    return { command: 'diff', cwd, json, session, trust };
  }
  if (cmd === 'rewind') {
    misplaced(['from', 'up-to', 'focus', 'undo']);
    if (rest.length > 1) throw new UsageError(`rewind takes one message id, got ${rest.length}: ${rest.join(' ')}`);
    const modes = (['code', 'conversation', 'both'] as const).filter((m) => v[m]);
    if (modes.length > 1) throw new UsageError(`use one of --code, --conversation or --both, not ${modes.map((m) => `--${m}`).join(' and ')}`);
    const target = rest[0];
    if (!target && (modes.length || v['dry-run'] || v.force)) throw new UsageError('rewind needs the id of a message to go back to (threadline rewind lists them)');
    if (target && !modes.length) throw new UsageError(`say what to restore: threadline rewind ${target} --code, --conversation or --both`);
    if (v.force && modes[0] === 'conversation') throw new UsageError('--force is for restoring code over files changed since; --conversation changes no file');
    return { command: 'rewind', cwd, json, session, target, mode: modes[0], dryRun: Boolean(v['dry-run']), force: Boolean(v.force), trust };
  }
  misplaced(['code', 'conversation', 'both', 'force']);
  if (rest.length) throw new UsageError(`unexpected arguments after compact: ${rest.join(' ')} (a message id goes with --from or --up-to)`);
  const picked = (['from', 'up-to', 'undo', 'list'] as const).filter((f) => v[f] !== undefined && v[f] !== false);
  if (picked.length > 1) throw new UsageError(`use one of --from, --up-to, --undo or --list, not ${picked.map((f) => `--${f}`).join(' and ')}`);
  const focus = typeof v.focus === 'string' && v.focus.trim() ? v.focus.trim() : undefined;
  const id = (f: string) => {
    const x = v[f];
    if (typeof x !== 'string' || !x.trim()) throw new UsageError(`--${f} needs a message id (threadline rewind lists them)`);
    return x.trim();
  };
  let action: CompactAction;
  if (v.from !== undefined) action = { kind: 'partial', direction: 'from', target: id('from'), ...(focus ? { focus } : {}) };
  else if (v['up-to'] !== undefined) action = { kind: 'partial', direction: 'upTo', target: id('up-to'), ...(focus ? { focus } : {}) };
  else if (v.undo !== undefined) action = { kind: 'undo', target: id('undo') };
  else if (v.list) action = { kind: 'list' };
  else action = { kind: 'all', ...(focus ? { focus } : {}) };
  if (focus && (action.kind === 'undo' || action.kind === 'list')) throw new UsageError('--focus goes with --from, --up-to or a whole compaction');
  if (v['dry-run'] && action.kind !== 'partial') throw new UsageError('--dry-run goes with --from or --up-to (it shows the summary without applying it)');
  return { command: 'compact', cwd, json, session, action, dryRun: Boolean(v['dry-run']), model, contextWindow, trust };
}
