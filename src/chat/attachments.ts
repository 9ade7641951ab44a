import { newId } from '../base/ids';
import type { Store } from '../shared/store';
import type { Attachment } from '../shared/viewState';
import type { AppState } from '../state/appState';

/** The most of one attached file or selection that goes into a message. */
const MAX_ATTACHMENT_CHARS = 100_000;
/** The most attachments one message carries. */
const MAX_ATTACHMENTS = 20;

/** What the host gives the chat to turn attachments into text: the workspace's files. */
export interface AttachmentSource {
  listFiles(): Promise<string[]>;
  /** A workspace file's text, or why it cannot be attached. */
  readFile(path: string): Promise<{ ok: true; text: string } | { ok: false; reason: string }>;
}

export type NewAttachment = { kind: 'file'; path: string } | { kind: 'selection'; path: string; startLine: number; endLine: number; text: string };

/** Adds an attachment unless the same one is there already; says why when it is refused. */
export function addAttachment(store: Store<AppState>, a: NewAttachment): string | undefined {
  const s = store.getState();
  if (s.attachments.length >= MAX_ATTACHMENTS) return `at most ${MAX_ATTACHMENTS} attachments go with one message`;
  const same = s.attachments.some((x) => x.kind === a.kind && x.path === a.path && (a.kind === 'file' || (x.kind === 'selection' && x.startLine === a.startLine && x.endLine === a.endLine)));
  if (same) return undefined;
  const next: Attachment = { ...a, id: newId('att') };
  store.setState((st) => ({ ...st, attachments: [...st.attachments, next] }));
  return undefined;
}

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function cut(text: string): string {
  return text.length > MAX_ATTACHMENT_CHARS ? `${text.slice(0, MAX_ATTACHMENT_CHARS)}\n… (${text.length - MAX_ATTACHMENT_CHARS} more characters not attached)` : text;
}

/**
 * The message as the model receives it: each attachment in its own clearly delimited block (path,
 * and line range for a selection), then what the user typed. A file that cannot be read says so in
 * its block rather than vanishing.
 */
export async function withAttachments(text: string, attachments: readonly Attachment[], source: Pick<AttachmentSource, 'readFile'>): Promise<string> {
  if (!attachments.length) return text;
  const blocks: string[] = [];
  for (const a of attachments) {
    if (a.kind === 'selection') {
      blocks.push(`<selection path="${attr(a.path)}" lines="${a.startLine}-${a.endLine}">\n${cut(a.text)}\n</selection>`);
      continue;
    }
    const read = await source.readFile(a.path);
    blocks.push(read.ok ? `<file path="${attr(a.path)}">\n${cut(read.text)}\n</file>` : `<file path="${attr(a.path)}" error="${attr(read.reason)}" />`);
  }
  return `${blocks.join('\n\n')}\n\n${text}`;
}

/** The composer's side of attachments: the `@` picker, chips added and removed. */
export function attachmentHandlers(store: Store<AppState>, source: AttachmentSource, warn: (message: string) => void) {
  return {
    'attach/pickFile': async () => {
      const files = await source.listFiles();
      store.setState((s) => ({ ...s, fileChoices: files }));
    },
    'attach/cancel': () => store.setState((s) => (s.fileChoices === null ? s : { ...s, fileChoices: null })),
    'attach/file': ({ path }: { path: string }) => {
      // Only a path the picker offered: the webview's word is not enough to reach a file.
      const offered = store.getState().fileChoices?.includes(path) ?? false;
      store.setState((s) => ({ ...s, fileChoices: null }));
      if (!offered) return;
      const refused = addAttachment(store, { kind: 'file', path });
      if (refused) warn(refused);
    },
    'attach/remove': ({ id }: { id: string }) => store.setState((s) => ({ ...s, attachments: s.attachments.filter((a) => a.id !== id) })),
  };
}
