import { useState } from 'react';
import type { ViewMessage } from '../../../src/shared/viewState';
import type { ToolDetail } from '../tools/describe';
import { PathLink } from './PathLink';

type ToolMessage = Extract<ViewMessage, { kind: 'tool' }>;

/** Hits drawn at most: a search can return hundreds, and each is a link. */
const MAX_HITS = 200;
/** Lines of output shown before "Show all". */
const OUTPUT_PREVIEW_LINES = 20;

const isFailure = (m: ToolMessage) => m.status === 'error' || m.status === 'denied';

/**
 * Long text starts folded, with the rest one click away: output to its last lines (where errors
 * are), a file's content to its first.
 */
function Output({ text, error, keep = 'tail' }: { text: string; error: boolean; keep?: 'head' | 'tail' }) {
  const lines = text.split('\n');
  const [all, setAll] = useState(lines.length <= OUTPUT_PREVIEW_LINES);
  return (
    <>
      {!all && (
        <button className="link more" onClick={() => setAll(true)}>
          Show all {lines.length} lines
        </button>
      )}
      <pre className={`tool-output${error ? ' error' : ''}`} data-testid="tool-output">
        {all ? text : (keep === 'tail' ? lines.slice(-OUTPUT_PREVIEW_LINES) : lines.slice(0, OUTPUT_PREVIEW_LINES)).join('\n')}
      </pre>
    </>
  );
}

function diffLines(text: string, sign: '+' | '-'): string {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `${sign} ${l}`)
    .join('\n');
}

export function ToolBody({ detail, message }: { detail: ToolDetail; message: ToolMessage }) {
  const failed = isFailure(message);
  switch (detail.kind) {
    case 'bash':
      // The description is the card's headline already: the body adds the command and its output.
      return (
        <div className="tool-body">
          <pre className="tool-command-full">{detail.command}</pre>
          {message.status === 'running' && message.liveOutput ? (
            <Output text={message.liveOutput} error={false} />
          ) : detail.outcome?.kind === 'failed' ? (
            <Output text={message.result ?? ''} error />
          ) : detail.output ? (
            <Output text={detail.output} error={failed} />
          ) : (
            message.result !== undefined && <div className="label">(no output)</div>
          )}
        </div>
      );
    case 'search':
      return (
        <div className="tool-body">
          {failed && message.result ? (
            <Output text={message.result} error />
          ) : (
            <ul className="hits">
              {detail.hits.slice(0, MAX_HITS).map((h, i) => (
                <li key={i}>
                  <PathLink file={h.line ? { path: h.path, line: h.line } : { path: h.path }} label={h.line ? `${h.path}:${h.line}` : h.path} />
                  {h.text !== undefined && <span className="hit-text">{h.text}</span>}
                </li>
              ))}
              {detail.hits.length > MAX_HITS && <li className="label">… {detail.hits.length - MAX_HITS} more</li>}
            </ul>
          )}
          {detail.note && <div className="label">{detail.note}</div>}
        </div>
      );
    case 'edit': {
      // The change is drawn once: from the host's diff above when there is one, else from the input.
      let input: { old_string?: unknown; new_string?: unknown } = {};
      try {
        input = JSON.parse(message.input) as typeof input;
      } catch {
        // describeTool already fell back for malformed input; nothing to add here
      }
      const showResult = message.result !== undefined && (failed || !message.diff);
      if (message.diff && !showResult) return null;
      return (
        <div className="tool-body">
          {!message.diff && (
            <pre className="tool-diff">
              {typeof input.old_string === 'string' && <span className="removed">{diffLines(input.old_string, '-')}</span>}
              {'\n'}
              {typeof input.new_string === 'string' && <span className="added">{diffLines(input.new_string, '+')}</span>}
            </pre>
          )}
          {/* Done, the result is the model's copy of the same change (numbered lines): shown only when it says why not. */}
          {showResult && <Output text={message.result!} error={failed} />}
        </div>
      );
    }
    case 'write': {
      let content: unknown;
      try {
        content = (JSON.parse(message.input) as { content?: unknown }).content;
      } catch {
        // describeTool already fell back for malformed input
      }
      return (
        <div className="tool-body">
          {typeof content === 'string' && !message.diff && <Output text={content} error={false} keep="head" />}
          {message.result !== undefined && <div className={`label${failed ? ' error' : ''}`}>{message.result}</div>}
        </div>
      );
    }
    case 'read':
      return <div className="tool-body">{message.result !== undefined && <Output text={message.result} error={failed} keep={failed ? 'tail' : 'head'} />}</div>;
    case 'other':
      return (
        <div className="tool-body">
          <div className="label">Input</div>
          <pre>{message.input}</pre>
          {message.result !== undefined && (
            <>
              <div className="label">Result</div>
              <Output text={message.result} error={failed} />
            </>
          )}
        </div>
      );
  }
}
