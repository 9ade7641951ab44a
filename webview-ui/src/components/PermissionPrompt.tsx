import { useMemo, useState } from 'react';
import type { PermissionDecision, PermissionPromptView, ViewState } from '../../../src/shared/viewState';
import { useView } from '../useView';
import { post } from '../vscodeApi';
import { DiffHunk, DiffStat } from './DiffHunk';

const selectPermission = (s: ViewState) => s.permission;

/** The fields a person decides on, read from the request's input (older hosts send only the detail text). */
function fieldsOf(p: PermissionPromptView): { description?: string; command?: string } {
  const json = p.input ?? p.detail.slice(p.detail.indexOf('\n\n') + 2);
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v !== 'object' || v === null) return {};
    const { description, command } = v as Record<string, unknown>;
    return {
      ...(typeof description === 'string' && description.trim() ? { description: description.trim() } : {}),
      ...(typeof command === 'string' ? { command } : {}),
    };
  } catch {
    return {};
  }
}

export function PermissionPrompt() {
  const p = useView(selectPermission);
  const [open, setOpen] = useState(false);
  const fields = useMemo(() => (p ? fieldsOf(p) : {}), [p]);
  if (!p) return null;
  const answer = (decision: PermissionDecision) => post({ type: 'permission/respond', payload: { requestId: p.requestId, decision } });
  return (
    <div className="permission" data-testid="permission-prompt" role="dialog" aria-label={`Allow ${p.toolName}?`}>
      <div className="permission-title">
        <span className="codicon codicon-shield" /> Allow <strong>{p.toolName}</strong>?
      </div>
      {fields.description && (
        <div className="permission-description" data-testid="permission-description">
          {fields.description}
        </div>
      )}
      {p.mcp && (
        <div className="permission-mcp" data-testid="permission-mcp">
          Tool <strong>{p.mcp.tool}</strong> of the MCP server <strong>{p.mcp.server}</strong>, with:
          <pre className="permission-detail">{p.input ?? '{}'}</pre>
        </div>
      )}
      {p.diff ? (
        <>
          <div className="permission-summary">
            {p.diff.path} <DiffStat diff={p.diff} />
          </div>
          <DiffHunk diff={p.diff} />
          <button className="secondary review-diff" data-testid="permission-review" onClick={() => post({ type: 'edit/review', payload: { requestId: p.requestId } })}>
            <span className="codicon codicon-diff" /> Review in diff editor
          </button>
        </>
      ) : (
        <>
          {!p.mcp && <div className="permission-summary">{fields.command ?? p.summary}</div>}
          <button className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide details' : 'Show details'}
          </button>
          {open && <pre className="permission-detail">{p.detail}</pre>}
        </>
      )}
      {p.session && (
        <div className="permission-scope" data-testid="permission-scope">
          {p.session.label}: {p.session.scope.charAt(0).toLowerCase() + p.session.scope.slice(1)}
        </div>
      )}
      <div className="permission-actions">
        <button data-testid="permission-allow-once" onClick={() => answer('allow-once')}>
          Allow once
        </button>
        <button className="secondary" data-testid="permission-allow-session" title={p.session?.scope} onClick={() => answer('allow-session')}>
          {p.session?.label ?? 'Allow for this session'}
        </button>
        {p.mcp && (
          <button className="secondary" data-testid="permission-allow-server" title={`Every tool of ${p.mcp.server} in this folder, from now on (remembers mcp__${p.mcp.server} for this folder only)`} onClick={() => answer('allow-server')}>
            Allow this server
          </button>
        )}
        <button className="secondary" data-testid="permission-deny" onClick={() => answer('deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}
