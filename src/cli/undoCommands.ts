// `threadline rewind`, `threadline diff` and `threadline compact`: Undo in the headless face, on
// this folder's latest session or the one `-r ID` names, through the same session driver and
// checkpoint store the panel uses.
import { DEFAULT_MODEL } from '../api/models';
import type { Agent } from '../agent/agent';
import { printable } from '../base/printable';
import type { RestorePlan } from '../checkpoints/plan';
import { SessionCheckpoints } from '../checkpoints/sessionCheckpoints';
import type { SessionDiffEntry } from '../checkpoints/sessionDiff';
import { displayRel } from '../checkpoints/core';
import { unifiedDiff } from '../checkpoints/textDiff';
import { undoableCompactions } from '../compact/undo';
import type { Host } from '../ports/host';
import type { SessionDriver } from '../sessions/sessionDriver';
import { sessionCheckpointsDir, SessionError, type LoadedSession, type SessionStore } from '../sessions/sessionStore';
import { createStore } from '../shared/store';
import { getDefaultAppState, type AppState } from '../state/appState';
import { RuntimeState } from '../state/runtimeState';
import type { CompactArgs, DiffArgs, RewindArgs, SessionPick } from './args';
import { headlessDriver } from './headlessDriver';
import type { CliIo } from './io';
import type { PromptDeps } from './runPrompt';

export interface UndoContext {
  io: CliIo;
  host: Host;
  /** What a driver for this folder is built from (tools, permissions, context, sessions). */
  deps: PromptDeps;
}

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
const oneLine = (text: string, max = 72) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return printable(t.length > max ? `${t.slice(0, max - 1)}…` : t);
};
/** Many lines of text for a terminal: each made printable, tabs and line breaks kept. */
const printableLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.split('\t').map(printable).join('\t'))
    .join('\n');
const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

class CommandError extends Error {}

async function pickSession(sessions: SessionStore, pick: SessionPick): Promise<LoadedSession> {
  let id: string | undefined;
  if ('id' in pick) id = pick.id;
  else id = (await sessions.list())[0]?.id ?? (await sessions.rebuildIndex())[0]?.id;
  if (!id) throw new CommandError('there is no saved session in this folder');
  try {
    return await sessions.load(id);
  } catch (err) {
    throw new CommandError(err instanceof SessionError || (err as NodeJS.ErrnoException).code === 'ENOENT' ? `no Threadline session ${id} in this folder (threadline sessions lists them)` : `cannot read session ${id}: ${why(err)}`);
  }
}

function checkpointsOf(ctx: UndoContext, loaded: LoadedSession): SessionCheckpoints {
  return new SessionCheckpoints({ dir: sessionCheckpointsDir(ctx.deps.sessions.dir, loaded.meta.id), workspace: loaded.meta.cwd, notify: (t) => ctx.io.err(`threadline: ${printable(t)}\n`), watch: false });
}

function openDriver(ctx: UndoContext, loaded: LoadedSession, settings: { model?: string; contextWindow?: number } = {}): { driver: SessionDriver<Agent>; state: () => AppState } {
  const runtime = new RuntimeState(loaded.meta.cwd);
  const store = createStore<AppState>(getDefaultAppState({ sessionId: runtime.sessionId, settings }));
  return { driver: headlessDriver({ cwd: loaded.meta.cwd, host: ctx.host, deps: ctx.deps, store, runtime, first: { kind: 'resume', loaded } }), state: () => store.getState() };
}

/** A user message's first line, to name it. */
function labelOf(loaded: LoadedSession, id: string): string {
  const m = loaded.view.find((x) => x.id === id);
  return m?.kind === 'user' ? oneLine(m.text, 60) : id;
}

/** An id the user typed: exact, or the one id it is the start of. */
function resolveId(typed: string, ids: readonly string[], what: string): string {
  if (ids.includes(typed)) return typed;
  const hits = ids.filter((id) => id.startsWith(typed));
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) throw new CommandError(`${printable(typed)} is the start of ${hits.length} ${what} ids; give more of it`);
  throw new CommandError(`no ${what} ${printable(typed)} in this session (threadline ${what === 'compaction' ? 'compact --list' : 'rewind'} lists them)`);
}

const LETTER = { modify: 'M', create: 'A', delete: 'D' } as const;

function planLines(plan: RestorePlan): string[] {
  const out = plan.files.map((f) => `  ${LETTER[f.action]} ${printable(f.rel)}  ${f.binary ? 'binary' : `+${f.added} -${f.removed}`}${f.conflict ? '  (changed since the agent last left it)' : ''}`);
  for (const r of plan.refused) out.push(`  not restored: ${printable(r.rel)}: ${printable(r.why)}`);
  if (plan.unchanged.length) out.push(`  ${files(plan.unchanged.length)} changed since ${plan.unchanged.length === 1 ? 'is' : 'are'} already as before`);
  return out;
}

const planJson = (plan: RestorePlan) => ({
  files: plan.files.map(({ path, rel, action, added, removed, binary, conflict }) => ({ path, rel, action, added, removed, binary, conflict })),
  refused: plan.refused.map(({ path, rel, why: w }) => ({ path, rel, why: w })),
  unchanged: plan.unchanged,
});

// --- threadline rewind ---

async function listRewind(ctx: UndoContext, args: RewindArgs, loaded: LoadedSession): Promise<number> {
  const cps = checkpointsOf(ctx, loaded);
  const store = await cps.store();
  const all = store?.checkpoints ?? [];
  const changed = (cp: string) => [...new Set(store!.ledger.changesOf(cp).map((c) => displayRel(store!.workspace, c.path)))];
  const messages = loaded.view.flatMap((m) => {
    if (m.kind !== 'user') return [];
    const cp = all.find((c) => c.kind === 'prompt' && c.ref === m.id);
    return [{ id: m.id, at: m.createdAt, text: m.text, conversation: Boolean(m.rewindable && loaded.prompts[m.id]), checkpoint: cp?.id ?? null, files: cp ? changed(cp.id) : [] }];
  });
  const restores = all.filter((c) => c.kind === 'restore').map((c) => ({ id: c.id, at: c.at, label: c.label, files: changed(c.id) }));
  cps.dispose();
  if (args.json) {
    ctx.io.out(`${JSON.stringify({ session: { id: loaded.meta.id, title: loaded.title ?? null }, messages, restores }, null, 2)}\n`);
    return 0;
  }
  ctx.io.out(`Session ${loaded.meta.id}${loaded.title ? `  ${oneLine(loaded.title, 60)}` : ''}\n`);
  if (!messages.length) ctx.io.out('No messages yet.\n');
  for (const m of messages) {
    const code = m.checkpoint ? (m.files.length ? files(m.files.length) : 'no files') : 'no checkpoint';
    ctx.io.out(`${m.id}  ${when(m.at)}  ${code.padEnd(13)}  ${m.conversation ? '' : '(code only)  '}${oneLine(m.text)}\n`);
  }
  for (const r of restores) ctx.io.out(`${r.id}  ${when(r.at)}  ${files(r.files.length).padEnd(13)}  ${oneLine(r.label)} (rewind to it with --code to undo that restore)\n`);
  return 0;
}

async function rewindTo(ctx: UndoContext, args: RewindArgs, loaded: LoadedSession): Promise<number> {
  const { io } = ctx;
  const cps0 = checkpointsOf(ctx, loaded);
  const known = (await cps0.list()).slice();
  cps0.dispose();
  const messageIds = loaded.view.filter((m) => m.kind === 'user').map((m) => m.id);
  const restoreIds = known.filter((c) => c.kind === 'restore').map((c) => c.id);
  const id = resolveId(args.target!, [...messageIds, ...restoreIds], 'message');
  const isRestore = restoreIds.includes(id);
  if (isRestore && args.mode !== 'code') throw new CommandError(`${id} is a restore: rewinding to it undoes that restore, which is code only (use --code)`);
  const message = loaded.view.find((m) => m.id === id);
  const label = message?.kind === 'user' ? labelOf(loaded, id) : (known.find((c) => c.id === id)?.label ?? id);
  const { driver } = openDriver(ctx, loaded);
  try {
    const out: Record<string, unknown> = { id, dryRun: args.dryRun };
    let plan: RestorePlan | undefined;
    if (args.mode !== 'conversation') {
      const cp = isRestore ? id : known.find((c) => c.kind === 'prompt' && c.ref === id)?.id;
      if (!cp) throw new CommandError(`there is no code checkpoint for ${id}: it was sent before checkpoints were kept, or it is older than the newest 100 prompts the session keeps${args.mode === 'both' ? ' (--conversation goes back in the conversation alone)' : ''}`);
      plan = await driver.checkpoints!.plan(cp);
      out.code = planJson(plan);
    }
    const conversation = args.mode !== 'code';
    if (conversation && !(message?.kind === 'user' && loaded.prompts[id] && message.rewindable)) {
      throw new CommandError(`the conversation cannot go back to ${id}: the message did not start a turn of its own, or the session was saved before Threadline kept what Rewind needs`);
    }
    const index = loaded.view.findIndex((m) => m.id === id);
    const dropped = conversation ? loaded.view.slice(index).filter((m) => m.kind === 'user' || m.kind === 'assistant').length : 0;
    if (args.dryRun) {
      if (args.json) {
        io.out(`${JSON.stringify({ ...out, conversation: conversation ? { dropsMessages: dropped } : null }, null, 2)}\n`);
        return 0;
      }
      if (plan) io.out(`Restoring the code to before “${label}” would change ${files(plan.files.length)}${plan.files.length ? ':' : '.'}\n${planLines(plan).map((l) => `${l}\n`).join('')}`);
      if (conversation) io.out(`The conversation would go back to before “${label}” (${dropped} message${dropped === 1 ? '' : 's'} dropped).\n`);
      return 0;
    }
    if (plan) {
      const conflicts = plan.files.filter((f) => f.conflict);
      // Headless, nobody can choose per file: a file changed since the agent last left it is not
      // overwritten unless --force says so, and then every one of them is.
      if (conflicts.length && !args.force) {
        io.err(`threadline: not restored: ${conflicts.length === 1 ? 'this file was' : 'these files were'} changed after the agent last changed ${conflicts.length === 1 ? 'it' : 'them'}: ${conflicts.map((f) => printable(f.rel)).join(', ')}. Nothing was changed. Run again with --force to overwrite ${conflicts.length === 1 ? 'it' : 'them'} too (--dry-run shows the list).\n`);
        return 1;
      }
      const res = await driver.checkpoints!.restore(plan, Object.fromEntries(conflicts.map((f) => [f.path, 'restore' as const])));
      out.restored = res.restored.map(({ path, rel, action }) => ({ path, rel, action }));
      out.refused = res.refused.map(({ path, rel, why: w }) => ({ path, rel, why: w }));
      out.redo = res.checkpoint?.id ?? null;
      if (!args.json) {
        io.out(`Restored ${files(res.restored.length)} to ${isRestore ? 'before that restore' : `before “${label}”`}${res.restored.length ? ':' : '.'}\n`);
        for (const f of plan.files) if (res.restored.some((r) => r.path === f.path)) io.out(`  ${LETTER[f.action]} ${printable(f.rel)}  ${f.binary ? 'binary' : `+${f.added} -${f.removed}`}\n`);
        for (const r of res.refused) io.out(`  not restored: ${printable(r.rel)}: ${printable(r.why)}\n`);
        if (res.checkpoint) io.out(`Undo this restore: threadline rewind ${res.checkpoint.id} --code\n`);
      }
    }
    if (conversation) {
      if (!driver.rewindTo(id)) throw new CommandError(`the conversation could not go back to ${id}${plan ? ' (the code was restored)' : ''}`);
      out.conversation = { dropsMessages: dropped };
      if (!args.json) io.out(`The conversation went back to before “${label}” (${dropped} message${dropped === 1 ? '' : 's'} dropped). Continue it with: threadline -r ${loaded.meta.id} -p …\n`);
    }
    if (args.json) io.out(`${JSON.stringify(out, null, 2)}\n`);
    await driver.flush();
    return 0;
  } finally {
    driver.dispose();
  }
}

export async function rewindCommand(args: RewindArgs, ctx: UndoContext): Promise<number> {
  return guarded(ctx, async () => {
    const loaded = await pickSession(ctx.deps.sessions, args.session);
    return args.target ? rewindTo(ctx, args, loaded) : listRewind(ctx, args, loaded);
  });
}

// --- threadline diff ---

export async function diffCommand(args: DiffArgs, ctx: UndoContext): Promise<number> {
  return guarded(ctx, async () => {
    const loaded = await pickSession(ctx.deps.sessions, args.session);
    const cps = checkpointsOf(ctx, loaded);
    let entries: SessionDiffEntry[];
    try {
      entries = await cps.diff();
    } finally {
      cps.dispose();
    }
    if (args.json) {
      ctx.io.out(`${JSON.stringify(entries.map(({ path, rel, status, added, removed, binary, before }) => ({ path, rel, status, added, removed, binary, firstSnapshot: before.k !== 'unknown' })), null, 2)}\n`);
      return 0;
    }
    if (!entries.length) ctx.io.err('threadline: no file has changed in this session (as far as its checkpoints know)\n');
    for (const e of entries) {
      if (e.before.k === 'unknown' || e.now.k === 'unknown') {
        ctx.io.out(`# ${printable(e.rel)}: ${printable(e.before.k === 'unknown' ? e.before.why : (e.now as { why: string }).why)}\n`);
        continue;
      }
      if (e.before.k === 'link' || e.now.k === 'link') {
        ctx.io.out(`# ${printable(e.rel)}: ${e.before.k === 'link' ? `was a link to ${printable(e.before.to)}` : e.before.k === 'absent' ? 'was not there' : 'was a file'}; ${e.now.k === 'link' ? `is a link to ${printable(e.now.to)}` : e.now.k === 'absent' ? 'is gone' : 'is a file'}\n`);
        continue;
      }
      ctx.io.out(printableLines(unifiedDiff(e.rel, e.beforeBytes, e.nowBytes)));
    }
    return 0;
  });
}

// --- threadline compact ---

/** What the session last said (a compaction that failed says why in a notice). */
function lastNotice(state: AppState): string | undefined {
  const n = [...state.messages].reverse().find((m) => m.kind === 'notice');
  return n?.kind === 'notice' ? n.text : undefined;
}

export async function compactCommand(args: CompactArgs, ctx: UndoContext): Promise<number> {
  return guarded(ctx, async () => {
    const { io } = ctx;
    const loaded = await pickSession(ctx.deps.sessions, args.session);
    const dividers = loaded.view.flatMap((m) => (m.kind === 'compaction' ? [m] : []));
    if (args.action.kind === 'list') {
      const undoable = new Set(undoableCompactions(loaded.history, loaded.compactions));
      const rows = loaded.compactions.map((r) => {
        const d = dividers.find((x) => x.id === r.id);
        const state = undoable.has(r.id) ? 'undoable' : d?.undone ? 'undone' : 'inside a later compaction (undo that one first)';
        return { id: r.id, at: d?.createdAt ?? null, tokensBefore: d?.tokensBefore ?? null, tokensAfter: d?.tokensAfter ?? null, state };
      });
      if (args.json) io.out(`${JSON.stringify(rows, null, 2)}\n`);
      else if (!rows.length) io.out('No compactions in this session that can be undone (compactions before Threadline kept their records cannot).\n');
      else for (const r of rows) io.out(`${r.id}  ${r.at ? when(r.at) : '?'}  ${r.tokensBefore ?? '?'} -> ${r.tokensAfter ?? '?'} tokens  ${r.state}\n`);
      return 0;
    }
    if (args.action.kind !== 'undo' && !(await ctx.host.apiKey())) throw new CommandError('ANTHROPIC_API_KEY is not set (a summary is written by the model)');
    const model = args.model ?? DEFAULT_MODEL;
    const resolved = await ctx.deps.models?.resolve?.(model, args.contextWindow ? { contextWindow: args.contextWindow } : {});
    if (resolved && !resolved.ok) throw new CommandError(`--model: ${resolved.error}`);
    const { driver, state } = openDriver(ctx, loaded, { ...(args.model ? { model: args.model } : {}), ...(args.contextWindow ? { contextWindow: args.contextWindow } : {}) });
    const records = () => driver.agent.conversation.compactions;
    try {
      if (args.action.kind === 'undo') {
        const id = resolveId(args.action.target, loaded.compactions.map((r) => r.id), 'compaction');
        if (!driver.undoCompaction(id)) throw new CommandError(`compaction ${id} cannot be undone now: its summary is not in the conversation (undone already, or inside a later compaction: undo that one first)`);
        io.out(args.json ? `${JSON.stringify({ undone: id, messages: driver.agent.messages.length }, null, 2)}\n` : `Undid compaction ${id}: the conversation has the messages it summarised back (${driver.agent.messages.length} messages now).\n`);
      } else if (args.action.kind === 'all') {
        const before = records().length;
        if (!(await driver.compactNow(args.action.focus))) throw new CommandError(`not compacted: ${lastNotice(state()) ?? 'the compaction failed'}`);
        const made = records().slice(before).at(-1);
        const d = state().messages.find((m) => m.id === made?.id);
        const figures = d?.kind === 'compaction' ? `${d.tokensBefore} -> ${d.tokensAfter} tokens` : '';
        io.out(args.json ? `${JSON.stringify({ compaction: made?.id ?? null, tokensBefore: d?.kind === 'compaction' ? d.tokensBefore : null, tokensAfter: d?.kind === 'compaction' ? d.tokensAfter : null }, null, 2)}\n` : `Compacted${figures ? `: ${figures}` : ''}.${made ? ` Undo it with: threadline compact --undo ${made.id}` : ''}\n`);
      } else {
        const { direction, focus } = args.action;
        const id = resolveId(args.action.target, loaded.view.filter((m) => m.kind === 'user').map((m) => m.id), 'message');
        let preview;
        try {
          preview = await driver.previewPartialCompaction(id, direction, focus);
        } catch (err) {
          throw new CommandError(`not summarised: ${why(err)}`);
        }
        const what = direction === 'from' ? 'from' : 'up to';
        if (!args.json) io.out(`Summary ${what} “${labelOf(loaded, id)}”: about ${preview.tokensBefore} -> ${preview.tokensAfter} tokens.\n\n${printableLines(preview.summary)}\n\n`);
        if (args.dryRun) {
          driver.cancelPartialCompaction(preview.id);
          if (args.json) io.out(`${JSON.stringify({ applied: false, direction, message: id, tokensBefore: preview.tokensBefore, tokensAfter: preview.tokensAfter, summary: preview.summary }, null, 2)}\n`);
          else io.out('Not applied (--dry-run).\n');
          return 0;
        }
        if (!driver.applyPartialCompaction(preview.id)) throw new CommandError('the summary could not be applied');
        const made = records().at(-1)!;
        if (args.json) io.out(`${JSON.stringify({ applied: true, compaction: made.id, direction, message: id, tokensBefore: preview.tokensBefore, tokensAfter: preview.tokensAfter, summary: preview.summary }, null, 2)}\n`);
        else io.out(`Applied. Undo it with: threadline compact --undo ${made.id}\n`);
      }
      await driver.flush();
      return 0;
    } finally {
      driver.dispose();
    }
  });
}

/** A refusal or a failure: one line on stderr, exit 1; nothing half done is left unsaid. */
async function guarded(ctx: UndoContext, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    ctx.io.err(`threadline: ${printable(why(err))}\n`);
    return 1;
  }
}
