import { basename } from 'node:path';
import * as vscode from 'vscode';
import { proposeChange } from '../tools/builtin/proposal';
import { relativeWithin } from '../fs/paths';
import { updateMessage } from '../state/actions';
import type { AppState } from '../state/appState';
import { subscribeSelector, type Store } from '../shared/store';
import type { PermissionDecision, PermissionPromptView } from '../shared/viewState';
import { summarizeChange } from '../tools/changeSummary';
import { parseJson } from '../fs/jsonText';

const PROPOSED_SCHEME = 'threadline-proposed';
/** Set while a Write/Edit waits for review; the diff editor's Accept/Reject show on it. */
const CONTEXT_KEY = 'threadline.editPending';

export type ReviewMode = 'open' | 'offer';

export interface EditReviewDeps {
  store: Store<AppState>;
  cwd: string;
  respond(requestId: string, decision: PermissionDecision): void;
  /** `threadline.reviewEdits`: open the diff at once, or only offer it in the prompt. */
  mode(): ReviewMode;
}

interface Review {
  requestId: string;
  before: vscode.Uri;
  after: vscode.Uri;
  title: string;
}

/**
 * A pending Write or Edit reviewed in VS Code's diff editor: the file as it is against what the
 * call would leave, both served read-only from memory, with Accept and Reject in the editor's
 * title bar. The chat's prompt and card get the change in brief (+n −m, first hunk). Whatever
 * answers the request (diff, panel, notification, Stop) closes the diff.
 */
export class EditReview implements vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private current: Review | undefined;
  /** Requests are handled one after another: a new one must not open before the last one closed. */
  private queue: Promise<void> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: EditReviewDeps) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, { provideTextDocumentContent: (uri) => this.texts.get(uri.toString()) ?? '' }),
      vscode.commands.registerCommand('threadline.acceptEdit', (uri?: vscode.Uri) => this.answer(uri, 'allow-once')),
      vscode.commands.registerCommand('threadline.rejectEdit', (uri?: vscode.Uri) => this.answer(uri, 'deny')),
    );
    const unsubscribe = subscribeSelector(deps.store, (s) => s.permission, (p, prev) => {
      this.queue = this.queue.then(() => this.onPermission(p, prev)).catch(() => undefined);
    });
    this.disposables.push(new vscode.Disposable(unsubscribe));
  }

  /** Opens the diff of the pending request (the prompt's "Review in diff editor"). */
  async open(requestId: string): Promise<void> {
    const r = this.current;
    if (!r || r.requestId !== requestId) return;
    await vscode.commands.executeCommand('vscode.diff', r.before, r.after, r.title, { preview: true, preserveFocus: false });
  }

  private async onPermission(p: PermissionPromptView | null, prev: PermissionPromptView | null): Promise<void> {
    if (prev && prev.requestId !== p?.requestId) await this.close(prev.requestId);
    if (!p || (p.toolName !== 'Write' && p.toolName !== 'Edit') || !p.input) return;
    let input: unknown;
    try {
      input = parseJson(p.input);
    } catch {
      return;
    }
    const proposal = await proposeChange(p.toolName, input, this.deps.cwd);
    // The request may have been answered while the file was read.
    if (!proposal?.ok || this.deps.store.getState().permission?.requestId !== p.requestId) return;
    const { abs, before, after } = proposal.change;
    const shown = relativeWithin(this.deps.cwd, abs) || abs;
    const diff = summarizeChange(shown, before, after);
    this.deps.store.setState((s) => (s.permission?.requestId === p.requestId ? { ...s, permission: { ...s.permission, diff } } : s));
    if (p.toolUseId) updateMessage(this.deps.store, p.toolUseId, (m) => (m.kind === 'tool' ? { ...m, diff } : m));
    const uri = (side: 'before' | 'after') => vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${shown.replace(/\\/g, '/').replace(/^\/+/, '')}`, query: new URLSearchParams({ id: p.requestId, side }).toString() });
    const review: Review = {
      requestId: p.requestId,
      before: uri('before'),
      after: uri('after'),
      title: `${basename(abs)} ${before === undefined ? '(new file) ' : ''}↔ proposed by Threadline (${p.toolName})`,
    };
    this.texts.set(review.before.toString(), before ?? '');
    this.texts.set(review.after.toString(), after);
    this.current = review;
    await vscode.commands.executeCommand('setContext', CONTEXT_KEY, true);
    if (this.deps.mode() === 'open') {
      await vscode.commands.executeCommand('vscode.diff', review.before, review.after, review.title, { preview: true, preserveFocus: true });
    }
  }

  private answer(uri: vscode.Uri | undefined, decision: PermissionDecision): void {
    const fromUri = uri?.scheme === PROPOSED_SCHEME ? new URLSearchParams(uri.query).get('id') : undefined;
    const requestId = fromUri ?? this.current?.requestId;
    if (requestId) this.deps.respond(requestId, decision);
  }

  private async close(requestId: string): Promise<void> {
    const r = this.current;
    if (!r || r.requestId !== requestId) return;
    this.current = undefined;
    this.texts.delete(r.before.toString());
    this.texts.delete(r.after.toString());
    await vscode.commands.executeCommand('setContext', CONTEXT_KEY, false);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === r.after.toString());
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
