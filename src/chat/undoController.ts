import type { RestoreChoices } from '../checkpoints/apply';
import type { Image } from '../checkpoints/manifest';
import { RestoreError, type RestorePlan } from '../checkpoints/plan';
import type { SessionCheckpoints } from '../checkpoints/sessionCheckpoints';
import type { SessionDiffEntry } from '../checkpoints/sessionDiff';
import type { PartialCompactionPreview } from '../sessions/sessionAgent';
import type { Store } from '../shared/store';
import type { RestoreScope, RestoreView, SummarizeDirection, SummarizeView } from '../shared/undoView';
import { addNotice } from '../state/actions';
import type { AppState } from '../state/appState';
import type { ChatHandlers } from '../state/viewSync';

/** What the panel's Undo asks of the open session (the session driver provides it). */
export interface UndoSession {
  readonly sessionId: string;
  readonly checkpoints: SessionCheckpoints | undefined;
  rewindTo(messageId: string): boolean;
  previewPartialCompaction(messageId: string, direction: SummarizeDirection, focus?: string): Promise<PartialCompactionPreview>;
  applyPartialCompaction(previewId: string): boolean;
  cancelPartialCompaction(previewId?: string): void;
}

/** One side of a diff: bytes, a symbolic link's text, or nothing there. */
export type DiffSide = { kind: 'bytes'; bytes: Buffer } | { kind: 'link'; to: string } | { kind: 'absent' };

/** What the editor shows of Undo: diffs of a restore's files and of the whole session. */
export interface UndoWorkbench {
  /** One file: as it is on disk now (left) against what the restore would put there (right). */
  openRestoreDiff(file: { path: string; rel: string }, restored: DiffSide, title: string): Promise<void>;
  /** Every file the session changed: its first snapshot (left) against the file now (right). */
  openSessionDiff(files: ReadonlyArray<{ path: string; rel: string; before: DiffSide; status: SessionDiffEntry['status'] }>): Promise<void>;
}

export interface UndoDeps {
  store: Store<AppState>;
  session: UndoSession;
  workbench: UndoWorkbench;
  /** A user message the conversation went back before returns to the box to edit (as Rewind puts it back). */
  handBack?(message: Extract<AppState['messages'][number], { kind: 'user' }>): void;
}

type UndoHandlers = Pick<ChatHandlers, 'restore/preview' | 'restore/openDiff' | 'restore/apply' | 'restore/redo' | 'restore/cancel' | 'session/diff' | 'summarize/ask' | 'summarize/preview' | 'summarize/apply' | 'summarize/cancel'>;

const firstLine = (text: string) => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 60 ? `${one.slice(0, 59)}…` : one;
};
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The side of a diff an image gives (a kept copy read from the store). */
async function sideOf(checkpoints: SessionCheckpoints, image: Image): Promise<DiffSide> {
  if (image.k === 'file') {
    const bytes = await checkpoints.blob(image.h);
    return bytes ? { kind: 'bytes', bytes } : { kind: 'absent' };
  }
  return image.k === 'link' ? { kind: 'link', to: image.to } : { kind: 'absent' };
}

/**
 * The panel's Undo: Restore code (or code and conversation) to before a user message, shown
 * first (files with +/- counts, each openable as a diff, conflicts to decide), then applied, then
 * offered back as Redo; "Summarize from here / up to here" with a focus, previewed, then applied;
 * and the session's changes in the diff view. Conversation-only Restore is Rewind (chat/rewind).
 */
export function undoHandlers(deps: UndoDeps): UndoHandlers {
  const { store, session } = deps;
  const busy = () => store.getState().status !== 'idle';
  /** The previewed plan, for the session it was made in. */
  let held: { sessionId: string; plan: RestorePlan | undefined; messageId: string; scope: RestoreScope; label: string; redo: boolean } | undefined;
  /** The newest applied restore's own checkpoint: restoring to it is Redo. */
  let redoOf: { sessionId: string; checkpoint: string; label: string } | undefined;

  const setRestore = (restore: RestoreView | null) => store.setState((s) => ({ ...s, restore }));
  const setSummarize = (update: (v: SummarizeView | null) => SummarizeView | null) => store.setState((s) => ({ ...s, summarize: update(s.summarize) }));
  const userText = (id: string) => {
    const m = store.getState().messages.find((x) => x.id === id);
    return m?.kind === 'user' ? m.text : undefined;
  };

  function show(plan: RestorePlan | undefined, base: Omit<RestoreView, 'stage' | 'files' | 'refused' | 'unchanged'>): void {
    setRestore({
      ...base,
      stage: 'preview',
      files: (plan?.files ?? []).map(({ path, rel, action, added, removed, binary, conflict }) => ({ path, rel, action, added, removed, binary, conflict })),
      refused: (plan?.refused ?? []).map(({ rel, why: w }) => ({ rel, why: w })),
      unchanged: plan?.unchanged.length ?? 0,
    });
  }

  async function preview(messageId: string, scope: RestoreScope): Promise<void> {
    const text = userText(messageId);
    if (text === undefined) return;
    const label = firstLine(text);
    const cps = session.checkpoints;
    const cp = await cps?.forMessage(messageId);
    const base = { messageId, scope, label };
    if (!cps || !cp) {
      const none = !cps ? 'This session keeps no code checkpoints.' : 'There is no code checkpoint for this message: it was sent before checkpoints were kept, or it is older than the newest 100 prompts this session keeps.';
      // Conversation and code: the conversation can still go back; code alone cannot.
      held = scope === 'both' ? { sessionId: session.sessionId, plan: undefined, messageId, scope, label, redo: false } : undefined;
      show(undefined, { ...base, error: scope === 'both' ? `${none} Only the conversation goes back.` : none });
      return;
    }
    try {
      const plan = await cps.plan(cp.id);
      held = { sessionId: session.sessionId, plan, messageId, scope, label, redo: false };
      show(plan, base);
    } catch (err) {
      held = undefined;
      show(undefined, { ...base, error: `The restore cannot be previewed: ${why(err)}` });
    }
  }

  return {
    'restore/preview': async ({ id, scope }) => {
      if (busy()) {
        addNotice(store, 'warning', 'Threadline is still answering. Stop it first, then restore.');
        return;
      }
      await preview(id, scope);
    },
    'restore/openDiff': async ({ path }) => {
      const file = held?.plan?.files.find((f) => f.path === path);
      const cps = session.checkpoints;
      if (!file || !cps || !held) return;
      const title = `${file.rel}: now ↔ ${held.redo ? 'after Redo' : `restored to before “${held.label}”`}`;
      await deps.workbench.openRestoreDiff(file, await sideOf(cps, file.target), title);
    },
    'restore/apply': async ({ choices }) => {
      const h = held;
      if (!h || h.sessionId !== session.sessionId || busy()) return;
      const cps = session.checkpoints;
      let restored = 0;
      let kept = 0;
      let canRedo = false;
      if (h.plan && cps) {
        try {
          const res = await cps.restore(h.plan, choices as RestoreChoices);
          restored = res.restored.length;
          kept = res.kept.length;
          if (res.checkpoint) {
            redoOf = { sessionId: h.sessionId, checkpoint: res.checkpoint.id, label: h.label };
            canRedo = true;
          }
        } catch (err) {
          // Nothing was changed (a restore is all or nothing): say why and keep the preview.
          const text = err instanceof RestoreError ? err.message : `The restore failed and nothing was changed: ${why(err)}`;
          setRestore(store.getState().restore && { ...store.getState().restore!, error: text });
          return;
        }
      }
      held = undefined;
      const message = store.getState().messages.find((m) => m.id === h.messageId);
      const rewound = h.scope === 'both' ? session.rewindTo(h.messageId) : false;
      if (rewound && message?.kind === 'user') deps.handBack?.(message);
      const code = h.plan ? `Restored ${plural(restored, 'file')}${kept ? ` (kept your version of ${plural(kept, 'file')})` : ''}` : '';
      const conversation = h.scope === 'both' ? (rewound ? 'the conversation went back to before it, and the message is back in the box' : 'the conversation could not go back (Rewind is not available for that message)') : '';
      const what = h.redo ? `Redo: ${code.toLowerCase() || 'nothing to change'}` : [code && `${code} to before “${h.label}”`, conversation].filter(Boolean).join('; ');
      addNotice(store, h.scope === 'both' && !rewound ? 'warning' : 'info', `${what}.`);
      setRestore({ messageId: h.messageId, scope: h.scope, label: h.label, stage: 'done', files: [], refused: [], unchanged: 0, restored, kept, canRedo, ...(h.redo ? { redo: true } : {}) });
    },
    'restore/redo': async () => {
      const r = redoOf;
      const cps = session.checkpoints;
      if (!r || r.sessionId !== session.sessionId || !cps || busy()) return;
      const messageId = store.getState().restore?.messageId ?? '';
      const label = `the restore to before “${r.label}”`;
      try {
        const plan = await cps.plan(r.checkpoint);
        held = { sessionId: r.sessionId, plan, messageId, scope: 'code', label, redo: true };
        show(plan, { messageId, scope: 'code', label, redo: true });
      } catch (err) {
        show(undefined, { messageId, scope: 'code', label, redo: true, error: `Redo is not available: ${why(err)}` });
      }
    },
    'restore/cancel': () => {
      held = undefined;
      setRestore(null);
    },
    'session/diff': async () => {
      const cps = session.checkpoints;
      const entries = cps ? await cps.diff() : [];
      if (!cps || !entries.length) {
        addNotice(store, 'info', cps ? 'No file has changed in this session (as far as its checkpoints know).' : 'This session keeps no code checkpoints.');
        return;
      }
      const files = await Promise.all(entries.map(async (e) => ({ path: e.path, rel: e.rel, status: e.status, before: await sideOf(cps, e.before) })));
      await deps.workbench.openSessionDiff(files);
    },
    'summarize/ask': ({ id, direction }) => {
      if (busy() || userText(id) === undefined) return;
      session.cancelPartialCompaction();
      setSummarize(() => ({ messageId: id, direction, stage: 'ask' }));
    },
    'summarize/preview': async ({ focus }) => {
      const v = store.getState().summarize;
      if (!v || v.stage !== 'ask') return;
      const f = focus.trim();
      setSummarize((s) => (s && { messageId: s.messageId, direction: s.direction, stage: 'running', ...(f ? { focus: f } : {}) }));
      try {
        const p = await session.previewPartialCompaction(v.messageId, v.direction, f || undefined);
        setSummarize((s) => (s?.messageId === v.messageId ? { ...s, stage: 'preview', previewId: p.id, tokensBefore: p.tokensBefore, tokensAfter: p.tokensAfter, summary: p.summary } : s));
      } catch (err) {
        setSummarize((s) => (s?.messageId === v.messageId ? { messageId: s.messageId, direction: s.direction, stage: 'ask', ...(f ? { focus: f } : {}), error: why(err) } : s));
      }
    },
    'summarize/apply': ({ previewId }) => {
      try {
        if (!session.applyPartialCompaction(previewId)) {
          addNotice(store, 'info', 'That summary preview is no longer current; nothing was changed.');
        }
      } catch (err) {
        addNotice(store, 'warning', `The summary was not applied: ${why(err)}.`);
      }
      setSummarize(() => null);
    },
    'summarize/cancel': () => {
      session.cancelPartialCompaction();
      setSummarize(() => null);
    },
  };
}
