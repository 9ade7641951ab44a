// What the panel keeps of each session besides its messages: the composer's unsent draft and
// where the reader was in the list. The host keeps them (in files beside the transcripts), because
// the webview's own state does not survive a browser reload in VS Code for the Web.

/** The composer's text, and when it was typed (epoch ms), so the newer of two copies wins. */
export interface SavedDraft {
  text: string;
  at: number;
}

/** Where the reader was in a session's list: the first message on screen, or the bottom. */
export interface SavedScroll {
  topId: string;
  atBottom: boolean;
  at: number;
}

/** A session's panel state as the host hands it back. */
export interface SessionUi {
  draft: SavedDraft | null;
  scroll: SavedScroll | null;
}

export const EMPTY_SESSION_UI: SessionUi = { draft: null, scroll: null };

/**
 * The longest draft kept across a reload: the longest message that can be sent. A longer one is
 * refused whole, with a message, never cut.
 */
export const MAX_DRAFT_CHARS = 1_000_000;

/** How long after the last keystroke the panel hands the draft to the host. */
export const DRAFT_SAVE_DELAY_MS = 300;

/** Why a draft cannot be kept (or sent), in words for the composer; undefined when it can. */
export function draftTooLong(text: string): string | undefined {
  if (text.length <= MAX_DRAFT_CHARS) return undefined;
  return `This draft is ${text.length.toLocaleString('en-US')} characters long; at most ${MAX_DRAFT_CHARS.toLocaleString('en-US')} can be sent or kept across a reload. Shorten it or send it in parts (it stays in the box until then).`;
}

/** The newer of two copies of a draft or a scroll anchor (a tie keeps the first). */
export function newer<T extends { at: number }>(a: T | null | undefined, b: T | null | undefined): T | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return b.at > a.at ? b : a;
}
