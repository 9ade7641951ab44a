import { MODEL_LINES, newestOfLine, type ModelFacts } from '../api/models';
import { formatTokens } from '../shared/format';
import type { ModelView } from '../shared/viewState';

/** One entry of the model picker, host-neutral (the VS Code face makes a QuickPickItem of it). */
export interface ModelChoice {
  /** What the setting becomes: an alias or a model id. */
  value: string;
  label: string;
  description: string;
  detail?: string;
  group: 'alias' | 'model';
  /** The entry the settings name now. */
  current: boolean;
}

const day = (iso: string | undefined) => iso?.slice(0, 10);
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function lifecycleNote(m: ModelFacts): string | undefined {
  if (m.lifecycle !== 'deprecated') return undefined;
  return m.retiresAt ? `Deprecated: retires on ${day(m.retiresAt)}` : 'Deprecated: will be retired';
}

/**
 * What the picker offers: each line's alias (it follows the newest model of the line), then
 * every model that is not retired, newest first, with its window and lifecycle. Retired models
 * are left out: requests naming them fail.
 */
export function modelChoices(models: readonly ModelFacts[], current: Pick<ModelView, 'requested' | 'id'>, contextWindowOverride = 0): ModelChoice[] {
  const usable = models.filter((m) => m.lifecycle !== 'retired');
  const requested = current.requested.toLowerCase();
  const window = (m: ModelFacts) => (contextWindowOverride > 0 ? contextWindowOverride : m.contextWindow);
  const windowText = (m: ModelFacts) => {
    const w = window(m);
    return w ? `${formatTokens(w)} window` : 'window unknown';
  };
  const aliases: ModelChoice[] = [];
  for (const line of MODEL_LINES) {
    const newest = newestOfLine(usable, line);
    if (!newest) continue;
    const note = lifecycleNote(newest);
    aliases.push({
      value: line,
      label: `${capital(line)} (latest)`,
      description: `${newest.displayName} · ${newest.id} · ${windowText(newest)}`,
      detail: note ?? `Follows each new ${capital(line)} model`,
      group: 'alias',
      current: requested === line,
    });
  }
  const newestFirst = [...usable].sort((a, b) => (a.releasedAt < b.releasedAt ? 1 : a.releasedAt > b.releasedAt ? -1 : a.id.localeCompare(b.id)));
  const exact = newestFirst.map((m): ModelChoice => {
    const note = lifecycleNote(m);
    return {
      value: m.id,
      label: m.displayName,
      description: `${m.id} · ${windowText(m)}`,
      ...(note ? { detail: note } : {}),
      group: 'model',
      current: requested === m.id.toLowerCase(),
    };
  });
  // An id typed by hand (a dated id, `[1m]`) that no entry names exactly: the entry it resolves to.
  if (![...aliases, ...exact].some((c) => c.current)) for (const c of exact) if (c.value === current.id) c.current = true;
  return [...aliases, ...exact];
}
