// `threadline rewind` and `threadline diff`: Undo in the headless face, on this folder's latest
// session or the one `-r ID` names, through the same session driver and checkpoint store the
// panel uses.
import { printable } from '../base/printable';
import type { RestorePlan } from '../checkpoints/plan';
import { SessionCheckpoints } from '../checkpoints/sessionCheckpoints';
import type { SessionDiffEntry } from '../checkpoints/sessionDiff';
import { displayRel } from '../checkpoints/core';
import { unifiedDiff } from '../checkpoints/textDiff';
import { sessionCheckpointsDir, type LoadedSession } from '../sessions/sessionStore';
import type { DiffArgs, RewindArgs } from './args';
import { CommandError, files, guarded, labelOf, oneLine, openDriver, pickSession, printableLines, resolveId, when, type UndoContext } from './undoShared';

export { compactCommand } from './compactCommand';
export type { UndoContext } from './undoShared';

function checkpointsOf(ctx: UndoContext, loaded: LoadedSession): SessionCheckpoints {
  return new SessionCheckpoints({ dir: sessionCheckpointsDir(ctx.deps.sessions.dir, loaded.meta.id), workspace: loaded.meta.cwd, notify: (t) => ctx.io.err(`threadline: ${printable(t)}\n`), watch: false });
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
