import type { WebviewToHostMessage } from '../../../src/shared/protocol';

/** One entry of a user message's menu: what it does, in a line, and what it asks the host. */
export interface MessageAction {
  key: string;
  icon: string;
  label: string;
  detail: string;
  message: WebviewToHostMessage;
}

/**
 * What can be done from a user message: going back to just before it, here or in a new session.
 * The menu is the confirmation (nothing happens on the first click), and each entry says what
 * it keeps and what it drops. Restoring files, or summarising part of the conversation, are
 * further entries of the same list.
 */
export function userMessageActions(id: string): MessageAction[] {
  return [
    {
      key: 'rewind',
      icon: 'discard',
      label: 'Rewind to here',
      detail: 'Drops this message and everything after it; the message comes back into the box to edit. Files on disk are not changed. Undo stays offered until you send.',
      message: { type: 'chat/rewind', payload: { id } },
    },
    {
      key: 'fork',
      icon: 'repo-forked',
      label: 'Fork from here',
      detail: 'A new session with the conversation before this message, and the message in its box; this session stays as it is.',
      message: { type: 'chat/fork', payload: { id } },
    },
  ];
}
