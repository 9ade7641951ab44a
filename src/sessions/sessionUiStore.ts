import { join } from 'node:path';
import { z } from 'zod';
import { readStateText } from '../fs/read';
import { writeFileAtomic } from '../fs/write';
import { draftTooLong, EMPTY_SESSION_UI, newer, type SavedDraft, type SavedScroll, type SessionUi } from '../shared/sessionUi';
import { assertSessionId, isSessionId, SessionError } from './transcript';
import { parseJson } from '../fs/jsonText';

const FOLDER = 'ui';
const FRESH = 'fresh-session.json';

/** Where a session's draft and scroll anchor are kept, in the sessions folder `sessionsDir`. */
export function sessionUiFile(sessionsDir: string, id: string): string {
  return join(sessionsDir, FOLDER, `${assertSessionId(id)}.json`);
}

const fileSchema = z.object({
  draft: z.object({ text: z.string(), at: z.number() }).nullable().catch(null),
  scroll: z.object({ topId: z.string().min(1).max(200), atBottom: z.boolean(), at: z.number() }).nullable().catch(null),
});

interface Entry {
  ui: SessionUi;
  /** A write is under way; `dirty` asks for one more with what is newest when it ends. */
  writing: Promise<void> | undefined;
  dirty: boolean;
}

/**
 * Each session's draft and scroll anchor, one small JSON file per session in `ui/` beside the
 * transcripts. Writes are atomic (a kill mid-write leaves the previous file whole) and coalesced:
 * at most one write per session is under way, and what arrives meanwhile is written once after
 * it, so a burst of saves costs two writes at most. A copy older than the one kept is ignored.
 */
export class SessionUiStore {
  private readonly entries = new Map<string, Entry>();
  private fresh: string | undefined;

  constructor(private readonly sessionsDir: string) {}

  private file(id: string): string {
    return sessionUiFile(this.sessionsDir, id);
  }

  /** What is kept for a session; nothing (not an error) when the file is missing or unreadable. */
  async get(id: string): Promise<SessionUi> {
    assertSessionId(id);
    const known = this.entries.get(id);
    if (known) return known.ui;
    const ui = await this.read(id);
    // A save that landed while the file was read is newer than the file.
    const raced = this.entries.get(id);
    if (raced) return raced.ui;
    this.entries.set(id, { ui, writing: undefined, dirty: false });
    return ui;
  }

  /** The copy in memory, if this session was read or saved already (no disk access). */
  peek(id: string): SessionUi | undefined {
    return this.entries.get(id)?.ui;
  }

  private async read(id: string): Promise<SessionUi> {
    const text = await readStateText(this.file(id));
    if (text === undefined) return EMPTY_SESSION_UI;
    try {
      const parsed = fileSchema.safeParse(parseJson(text));
      return parsed.success ? { draft: parsed.data.draft, scroll: parsed.data.scroll } : EMPTY_SESSION_UI;
    } catch {
      return EMPTY_SESSION_UI;
    }
  }

  /**
   * Keeps a draft, unless a newer one is kept already. A draft too long to keep is refused
   * whole (a SessionError saying so) and the one kept before stays.
   */
  async saveDraft(id: string, draft: SavedDraft): Promise<void> {
    const problem = draftTooLong(draft.text);
    if (problem) throw new SessionError(problem);
    const ui = await this.get(id);
    if (newer(ui.draft, draft) !== draft) return;
    await this.put(id, { ...ui, draft });
  }

  /**
   * A sent message leaves the composer empty. Stamped just after the draft it replaces, on the
   * panel's clock that stamped that draft (the host's may differ: code-server's browser and server
   * can be different machines), so the next draft typed is newer again.
   */
  async clearDraft(id: string): Promise<void> {
    const ui = await this.get(id);
    if (!ui.draft?.text) return;
    await this.put(id, { ...ui, draft: { text: '', at: ui.draft.at + 1 } });
  }

  async saveScroll(id: string, scroll: SavedScroll): Promise<void> {
    const ui = await this.get(id);
    if (newer(ui.scroll, scroll) !== scroll) return;
    if (ui.scroll && ui.scroll.topId === scroll.topId && ui.scroll.atBottom === scroll.atBottom) return;
    await this.put(id, { ...ui, scroll });
  }

  /**
   * Notes a session that has a draft but no message yet (no transcript, so the open-session note
   * does not name it): a reload brings it back with its draft instead of a blank one.
   */
  async markFresh(id: string, at: number): Promise<void> {
    if (this.fresh === assertSessionId(id)) return;
    this.fresh = id;
    await writeFileAtomic(join(this.sessionsDir, FOLDER, FRESH), `${JSON.stringify({ id, at })}\n`);
  }

  /** The session last marked fresh, if it still has a draft. */
  async readFresh(): Promise<{ id: string; at: number } | undefined> {
    let note: unknown;
    try {
      note = parseJson((await readStateText(join(this.sessionsDir, FOLDER, FRESH))) ?? '');
    } catch {
      return undefined;
    }
    const parsed = z.object({ id: z.string().refine(isSessionId), at: z.number() }).safeParse(note);
    if (!parsed.success) return undefined;
    const { draft } = await this.get(parsed.data.id);
    return draft?.text ? parsed.data : undefined;
  }

  /** Every write asked for so far is on disk (or has failed). */
  async flush(): Promise<void> {
    for (;;) {
      const busy = [...this.entries.values()].map((e) => e.writing).filter((w): w is Promise<void> => w !== undefined);
      if (!busy.length) return;
      await Promise.allSettled(busy);
    }
  }

  private put(id: string, ui: SessionUi): Promise<void> {
    const entry = this.entries.get(id) ?? { ui, writing: undefined, dirty: false };
    entry.ui = ui;
    this.entries.set(id, entry);
    if (entry.writing) {
      entry.dirty = true;
      return entry.writing;
    }
    const run = async (): Promise<void> => {
      do {
        entry.dirty = false;
        await writeFileAtomic(this.file(id), `${JSON.stringify(entry.ui)}\n`);
      } while (entry.dirty);
    };
    // Cleared once settled, either way (a failed write is retried by the next save).
    const writing = run().finally(() => {
      if (entry.writing === writing) entry.writing = undefined;
    });
    entry.writing = writing;
    return writing;
  }
}
