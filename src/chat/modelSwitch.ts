import type { ModelInfo, ModelSource } from '../api/models';
import type { ThinkingSetting } from '../api/thinking';
import { noteModelWarning } from '../agent/modelNotice';
import { computeThresholds } from '../conversation/thresholds';
import { formatTokens } from '../shared/format';
import type { Store } from '../shared/store';
import { addNotice } from '../state/actions';
import type { AppState } from '../state/appState';

/** Whether the conversation as it stands can go on in the target model's window. */
export type SwitchPlan =
  | { kind: 'fits'; target: ModelInfo }
  /** The next request would already be past the target's blocking threshold. */
  | { kind: 'compactFirst'; target: ModelInfo; used: number; blockingAt: number };

export function planSwitch(used: number, target: ModelInfo): SwitchPlan {
  const { blockingAt } = computeThresholds(target.contextWindow, target.maxOutputTokens);
  return used >= blockingAt ? { kind: 'compactFirst', target, used, blockingAt } : { kind: 'fits', target };
}

export type CompactChoice = 'compact' | 'switch' | 'cancel';
export type SwitchResult = 'switched' | 'cancelled' | 'refused' | 'busy';

/** What the switcher needs of the open session's agent. */
export interface SwitchableAgent {
  readonly busy: boolean;
  usedTokens(): number;
  publishTokens(): void;
}

export interface ModelSwitchDeps {
  store: Store<AppState>;
  models: ModelSource;
  agent(): SwitchableAgent;
  /** Asks the user whether to compact before a switch the conversation no longer fits. */
  confirmCompact(plan: Extract<SwitchPlan, { kind: 'compactFirst' }>): Promise<CompactChoice>;
  /** Manual compaction; true when it ran. */
  compact(): Promise<boolean>;
  /** Writes the choice where the host keeps settings (VS Code's `threadline.model`, `threadline.thinking`). */
  persist(key: 'model' | 'thinking', value: string): Promise<void>;
}

export function describeCompactFirst(plan: Extract<SwitchPlan, { kind: 'compactFirst' }>): string {
  const t = plan.target;
  return `The conversation (${formatTokens(plan.used)} tokens) no longer fits ${t.displayName}'s ${formatTokens(t.contextWindow)} window: new messages are blocked from ${formatTokens(plan.blockingAt)}. Compact it first?`;
}

/**
 * Switches the session's model: the conversation stays, the thresholds and the meter follow
 * the new window at once. An id the Models API does not know is refused with close matches; a
 * switch to a window the conversation no longer fits offers a compaction first.
 */
export class ModelSwitcher {
  constructor(private readonly deps: ModelSwitchDeps) {}

  async switchTo(requested: string): Promise<SwitchResult> {
    const { store, models } = this.deps;
    const name = requested.trim();
    if (this.deps.agent().busy || store.getState().status !== 'idle') {
      addNotice(store, 'warning', 'Threadline is still answering. Stop it first, then switch the model.');
      return 'busy';
    }
    const overrides = { contextWindow: store.getState().settings.contextWindow };
    const r = models.resolve ? await models.resolve(name, overrides) : { ok: true as const, model: models.current(name, overrides) };
    if (!r.ok) {
      addNotice(store, 'error', `${r.error}${r.suggestions.length && !r.error.includes(r.suggestions[0]!) ? ` Try: ${r.suggestions.join(', ')}.` : ''} The model was not changed.`);
      return 'refused';
    }
    const plan = planSwitch(this.deps.agent().usedTokens(), r.model);
    if (plan.kind === 'compactFirst') {
      const choice = await this.deps.confirmCompact(plan);
      if (choice === 'cancel') return 'cancelled';
      if (choice === 'compact' && !(await this.deps.compact())) {
        addNotice(store, 'warning', `The conversation was not compacted, so the model stays ${store.getState().modelView.displayName}.`);
        return 'cancelled';
      }
    }
    this.apply('model', name);
    await this.persist('model', name);
    const now = store.getState().modelView;
    const still = planSwitch(this.deps.agent().usedTokens(), r.model);
    addNotice(
      store,
      still.kind === 'fits' ? 'info' : 'warning',
      `Switched to ${now.displayName} (${now.id}, ${formatTokens(now.contextWindow)} window). The conversation continues.` +
        (still.kind === 'fits' ? '' : ` It is still larger than this window allows: compact it before the next message.`),
      ...(still.kind === 'fits' ? [] : [{ label: 'Compact', command: 'compact' as const }]),
    );
    // A deprecated choice says when it retires (and offers its successor) now, not at the next message.
    noteModelWarning(store, models, r);
    return 'switched';
  }

  /** `/think`: on or off for the next requests; undefined toggles. */
  async setThinking(on?: boolean): Promise<ThinkingSetting> {
    const { store } = this.deps;
    const next: ThinkingSetting = (on ?? store.getState().settings.thinking === 'off') ? 'adaptive' : 'off';
    this.apply('thinking', next);
    await this.persist('thinking', next);
    const view = store.getState().modelView;
    addNotice(store, 'info', next === 'off' ? 'Thinking is off.' : `Thinking is on: ${view.displayName} thinks before it answers where it can.`);
    return next;
  }

  /** The store at once (the settings watcher follows when the host writes the setting). */
  private apply(key: 'model' | 'thinking', value: string): void {
    const { store } = this.deps;
    store.setState((s) =>
      key === 'model' ? { ...s, model: value, settings: { ...s.settings, model: value } } : { ...s, settings: { ...s.settings, thinking: value === 'off' ? 'off' : 'adaptive' } },
    );
    this.deps.agent().publishTokens();
  }

  private async persist(key: 'model' | 'thinking', value: string): Promise<void> {
    try {
      await this.deps.persist(key, value);
    } catch (err) {
      addNotice(this.deps.store, 'warning', `The ${key} setting could not be saved (${err instanceof Error ? err.message : String(err)}); the change holds for this window only.`);
    }
  }
}
