import type { Attachment, ViewMessage } from '../../../src/shared/viewState';
import type { RowAttributes } from './rowAttributes';
import { UserMessageMenu } from './UserMessageMenu';

type UserViewMessage = Extract<ViewMessage, { kind: 'user' }>;

export const attachmentLabel = (a: Attachment) => (a.kind === 'file' ? a.path : `${a.path}:${a.startLine === a.endLine ? a.startLine : `${a.startLine}-${a.endLine}`}`);

/** What the user sent: their words, with chips for the files and selections that went with them. */
export function UserMessage({ message, common }: { message: UserViewMessage; common: RowAttributes }) {
  return (
    <div className="message user" {...common}>
      <div className="role">
        <span className="codicon codicon-account" /> You
        <UserMessageMenu id={message.id} rewindable={message.rewindable === true} />
      </div>
      {message.attachments && message.attachments.length > 0 && (
        <div className="attachments sent" data-testid="sent-attachments">
          {message.attachments.map((a) => (
            <span key={a.id} className="chip" data-testid="sent-attachment" data-kind={a.kind} title={attachmentLabel(a)}>
              <span className={`codicon codicon-${a.kind === 'file' ? 'file' : 'selection'}`} />
              <span className="chip-label">{attachmentLabel(a)}</span>
            </span>
          ))}
        </div>
      )}
      <div className="user-text">{message.text}</div>
    </div>
  );
}
