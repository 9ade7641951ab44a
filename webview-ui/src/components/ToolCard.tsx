import { useMemo, useState } from 'react';
import { counted, formatDuration } from '../../../src/shared/format';
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
          {detail.linesShown !== undefined && <span className="tool-meta">{counted(detail.linesShown, 'line')}</span>}
        </>
      );
    case 'write':
      return (
        <>
          <PathLink file={detail.file} />
          {message.diff ? <DiffStat diff={message.diff} /> : <span className="tool-meta">{counted(detail.lines, 'line')}</span>}
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
      const finished = message.status === 'done';
      const found =
        detail.matches === 0 || (finished && detail.files === 0)
          ? 'no matches'
          : detail.matches !== undefined
            ? `${counted(detail.matches, 'match', 'matches')} in ${counted(detail.files, 'file')}`
            : counted(detail.files, 'file');
      return (
        <>
          <code className="tool-text" title={detail.pattern}>
            {detail.tool === 'Grep' ? `/${detail.pattern}/` : detail.pattern}
          </code>
          {detail.where && <span className="tool-meta">in {detail.where}</span>}
          {finished && (
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

/** Lines of a running command's output shown on its folded card. */
const LIVE_LINES = 4;

/** The last lines a running command printed, as they come (the whole of it is a click away). */
function LiveTail({ text }: { text: string }) {
  const lines = text.replace(/\n$/, '').split('\n').slice(-LIVE_LINES).join('\n');
  return (
    <pre className="tool-live" data-testid="tool-live" aria-live="polite">
      {lines}
    </pre>
  );
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
        {/* Folded, the command shows under its description; open, the body shows it (once). */}
        {detail.kind === 'bash' && detail.description && !open && (
          <div className="tool-command" title={detail.command}>
            <code>{detail.command}</code>
          </div>
        )}
        {message.status === 'running' && message.liveOutput && !open && <LiveTail text={message.liveOutput} />}
        {/* While the prompt below shows the change, the card keeps to its figures. */}
        {message.diff && open && <DiffHunk diff={message.diff} />}
        {open && <ToolBody detail={detail} message={message} />}
      </div>
    </div>
  );
}
