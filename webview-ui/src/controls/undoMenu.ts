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
 * What can be done from a user message, as Claude Code's rewind menu offers it: put the code,
 * the conversation or both back as they were before it, fork from it, or summarise part of the
 * conversation. The menu is the confirmation for nothing: every entry that changes files or the
 * conversation shows what it will do first, or says in its line what it keeps and what it drops.
 * Entries that go back in the conversation need a message that starts a turn of its own.
 */
export function userMessageActions(id: string, opts: { rewindable: boolean }): MessageAction[] {
  const conversation: MessageAction[] = opts.rewindable
    ? [
        {
          key: 'rewind',
          icon: 'discard',
          label: 'Restore conversation',
          detail: 'Drops this message and everything after it. Files on disk are not changed.',
          message: { type: 'chat/rewind', payload: { id } },
        },
        {
          key: 'restore-both',
          icon: 'history',
          label: 'Restore code and conversation',
          detail: 'Both, as they were before this message. You see which files change first.',
          message: { type: 'restore/preview', payload: { id, scope: 'both' } },
        },
      ]
    : [];
  return [
    {
      key: 'restore-code',
      icon: 'file-symlink-file',
      label: 'Restore code',
      detail: 'The files the agent changed since this message, as they were before it. You see which files change, and how, first; the conversation stays.',
      message: { type: 'restore/preview', payload: { id, scope: 'code' } },
    },
    ...conversation,
    ...(opts.rewindable
      ? [
          {
            key: 'fork',
            icon: 'repo-forked',
            label: 'Fork from here',
            detail: 'A new session with the conversation before this message; this session stays as it is.',
            message: { type: 'chat/fork', payload: { id } } as WebviewToHostMessage,
          },
        ]
      : []),
    {
      key: 'summarize-from',
      icon: 'fold-down',
      label: 'Summarize from here…',
      detail: 'Keeps everything before this message word for word and summarises it and the rest. You see the summary and the saving first.',
      message: { type: 'summarize/ask', payload: { id, direction: 'from' } },
    },
    {
      key: 'summarize-upto',
      icon: 'fold-up',
      label: 'Summarize up to here…',
      detail: 'Summarises everything before this message and keeps it and the rest word for word. You see the summary and the saving first.',
      message: { type: 'summarize/ask', payload: { id, direction: 'upTo' } },
    },
  ];
}
