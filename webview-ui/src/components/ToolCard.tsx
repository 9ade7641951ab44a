import { useMemo, useState } from 'react';
import { formatDuration } from '../../../src/shared/format';
import type { ViewMessage } from '../../../src/shared/viewState';
import { describeTool, type ToolDetail } from '../tools/describe';
import type { RowAttributes } from './rowAttributes';
import { DiffHunk, DiffStat } from './DiffHunk';
import { PathLink } from './PathLink';
import { ToolBody } from './ToolBody';

type ToolMessage = Extract<ViewMessage, { kind: 'tool' }>;

const STATUS_ICON: Record<ToolMessage['status'], string> = {
  pending: 'circle-large-outline',
  'awaiting-permission': 'shield',
  running: 'loading codicon-modifier-spin',
  done: 'check',
  error: 'error',
  denied: 'circle-slash',
  interrupted: 'debug-stop',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function bashBadge(d: Extract<ToolDetail, { kind: 'bash' }>): { text: string; bad: boolean } | undefined {
  const o = d.outcome;
  if (!o) return undefined;
  switch (o.kind) {
    case 'exit':
      return { text: `exit ${o.code}`, bad: o.code !== 0 };
    case 'signal':
      return { text: `killed (${o.signal})`, bad: true };
    case 'timeout':
      return { text: `timed out after ${o.after}`, bad: true };
    case 'interrupted':
      return { text: 'stopped', bad: true };
    case 'failed':
      return { text: 'did not run', bad: true };
  }
}

/** The one line a card shows folded: what the tool was called on and what came of it. */
function Headline({ detail, message }: { detail: ToolDetail; message: ToolMessage }) {
  switch (detail.kind) {
    case 'read':
      return (
        <>
          <PathLink file={detail.file} />
          {detail.range && <span className="tool-meta">{detail.range}</span>}
          {detail.linesShown !== undefined && <span className="tool-meta">{plural(detail.linesShown, 'line')}</span>}
        </>
      );
    case 'write':
      return (
        <>
          <PathLink file={detail.file} />
          {message.diff ? <DiffStat diff={message.diff} /> : <span className="tool-meta">{plural(detail.lines, 'line')}</span>}
        </>
      );
    case 'edit':
      if (message.diff) {
        return (
          <>
            <PathLink file={detail.file} />
            <DiffStat diff={message.diff} />
          </>
        );
      }
      return (
        <>
          <PathLink file={detail.file} />
          <span className="tool-meta diffstat">
            <span className="added">+{detail.added}</span> <span className="removed">−{detail.removed}</span>
            {detail.replaceAll ? ' (all)' : ''}
          </span>
        </>
      );
    case 'bash': {
      const badge = bashBadge(detail);
      return (
        <>
          <span className="tool-text" title={detail.command}>
            {detail.description ?? <code>{detail.command}</code>}
          </span>
          {badge && (
            <span className={`exit-badge${badge.bad ? ' bad' : ''}`} data-testid="bash-exit">
              {badge.text}
            </span>
          )}
        </>
      );
    }
    case 'search': {
      const counted = message.status === 'done';
      const found =
        detail.matches === 0 || (counted && detail.files === 0)
          ? 'no matches'
          : detail.matches !== undefined
            ? `${plural(detail.matches, 'match', 'matches')} in ${plural(detail.files, 'file')}`
            : plural(detail.files, 'file');
      return (
        <>
          <code className="tool-text" title={detail.pattern}>
            {detail.tool === 'Grep' ? `/${detail.pattern}/` : detail.pattern}
          </code>
          {detail.where && <span className="tool-meta">in {detail.where}</span>}
          {counted && (
            <span className="tool-meta" data-testid="search-count">
              {found}
            </span>
          )}
        </>
      );
    }
    case 'other':
      return <span className="tool-text">{message.summary}</span>;
  }
}

export function ToolCard({ message, common }: { message: ToolMessage; common: RowAttributes }) {
  const [open, setOpen] = useState(false);
  // A message object is replaced only when the host changes it, so this parses once per change.
  const detail = useMemo(() => describeTool(message), [message]);
  const duration = formatDuration(message.durationMs);
  return (
    <div className={`message tool status-${message.status}`} {...common}>
      <div className="tool-card" data-testid="tool-card" data-status={message.status} data-tool={message.name}>
        <div className="tool-head" onClick={() => setOpen(!open)}>
          <button className="tool-toggle" aria-expanded={open} aria-label={`${open ? 'Hide' : 'Show'} ${message.name} details`} onClick={(e) => (e.stopPropagation(), setOpen(!open))}>
            <span className={`codicon codicon-chevron-${open ? 'down' : 'right'}`} />
            <span className="tool-name">{message.name}</span>
          </button>
          <span className="tool-summary">
            <Headline detail={detail} message={message} />
          </span>
          <span className="tool-status" title={message.status}>
            <span className={`codicon codicon-${STATUS_ICON[message.status]}`} />
            {duration && <span className="duration">{duration}</span>}
          </span>
        </div>
        {detail.kind === 'bash' && detail.description && (
          <div className="tool-command" title={detail.command}>
            <code>{detail.command}</code>
          </div>
        )}
        {/* While the prompt below shows the change, the card keeps to its figures. */}
        {message.diff && open && <DiffHunk diff={message.diff} />}
        {open && <ToolBody detail={detail} message={message} />}
      </div>
    </div>
  );
}
