import { useState } from 'react';
import type { PermissionDecision, ViewState } from '../../../src/shared/viewState';
import { post } from '../vscodeApi';
import { useView } from '../useView';

const selectPermission = (s: ViewState) => s.permission;

export function PermissionPrompt() {
  const p = useView(selectPermission);
  const [open, setOpen] = useState(false);
  if (!p) return null;
  const answer = (decision: PermissionDecision) => post({ type: 'permission/respond', payload: { requestId: p.requestId, decision } });
  return (
    <div className="permission" data-testid="permission-prompt" role="dialog" aria-label={`Allow ${p.toolName}?`}>
      <div className="permission-title">
        <span className="codicon codicon-shield" /> Allow <strong>{p.toolName}</strong>?
      </div>
      <div className="permission-summary">{p.summary}</div>
      <button className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide details' : 'Show details'}
      </button>
      {open && <pre className="permission-detail">{p.detail}</pre>}
      <div className="permission-actions">
        <button data-testid="permission-allow-once" onClick={() => answer('allow-once')}>Allow once</button>
        <button className="secondary" data-testid="permission-allow-session" onClick={() => answer('allow-session')}>Allow for this session</button>
        <button className="secondary" data-testid="permission-deny" onClick={() => answer('deny')}>Deny</button>
      </div>
    </div>
  );
}
