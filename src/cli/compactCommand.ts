// `threadline compact`: all of the conversation, part of it (--from / --up-to a message), or the
// list and Undo of the session's compactions, through the same driver the panel uses.
import { DEFAULT_MODEL } from '../api/models';
import { undoableCompactions } from '../compact/undo';
import type { AppState } from '../state/appState';
import type { CompactArgs } from './args';
import { CommandError, guarded, labelOf, openDriver, pickSession, printableLines, resolveId, when, why, type UndoContext } from './undoShared';

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
