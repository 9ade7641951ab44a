import { closest, distance } from 'fastest-levenshtein';
import { FALLBACK_MODELS, supports1m } from './modelTable';
import type { Lifecycle, ModelFacts, ThinkingSupport } from './modelFacts';
import { priceFor, type Price } from './prices';
import { formatTokens } from '../shared/format';

export type { Lifecycle, ModelFacts, ThinkingSupport } from './modelFacts';

/** A model resolved for use: what requests, thresholds and the cost need. */
export interface ModelInfo {
  /** The id sent to the API. */
  id: string;
  /** What the user asked for: an alias, an id, an id with `[1m]`. */
  requested: string;
  displayName: string;
  contextWindow: number;
  maxOutputTokens: number;
  lifecycle: Lifecycle;
  retiresAt?: string;
  thinking?: ThinkingSupport;
  /** `anthropic-beta` values the requests need (a 1M-context variant). */
  betas: string[];
  /** False when neither the API nor the table knows the id (limits are assumed). */
  known: boolean;
  /** Undefined when the price is not known; the cost is then not shown. */
  price: Price | undefined;
}

export type Resolution = { ok: true; model: ModelInfo; warning?: string; /** A deprecated model's newest active successor in its line. */ successor?: string } | { ok: false; error: string; suggestions: string[] };

export interface ModelOverrides {
  contextWindow?: number;
  maxOutputTokens?: number;
}

/** The default setting: an alias, so it follows each new Sonnet without a release of ours. */
export const DEFAULT_MODEL = 'sonnet';

/** Aliases name a line; they resolve to its newest active model. */
export const MODEL_LINES = ['opus', 'sonnet', 'haiku', 'fable'] as const;

/** Limits assumed for a model nobody describes (an offline custom id), unless overridden. */
const ASSUMED_LIMITS = { contextWindow: 200_000, maxOutputTokens: 32_000 } as const;

export const CONTEXT_1M_BETA = 'context-1m-2025-08-07';
const ONE_MILLION = 1_000_000;
const DATED = /^(.*)-(\d{8})$/;

const newest = (a: ModelFacts, b: ModelFacts) => (a.releasedAt < b.releasedAt ? 1 : a.releasedAt > b.releasedAt ? -1 : a.id.localeCompare(b.id));
const day = (iso: string | undefined) => iso?.slice(0, 10);

/** The model an id names: exactly, by its undated alias, or a dated id by its undated entry. */
function findModel(models: readonly ModelFacts[], id: string): ModelFacts | undefined {
  const exact = models.find((m) => m.id === id);
  if (exact) return exact;
  const dated = models.filter((m) => DATED.exec(m.id)?.[1] === id).sort(newest)[0];
  if (dated) return dated;
  const bare = DATED.exec(id)?.[1];
  return bare ? models.find((m) => m.id === bare) : undefined;
}

/** The newest active model of a line (deprecated ones only when nothing active is left). */
export function newestOfLine(models: readonly ModelFacts[], line: string): ModelFacts | undefined {
  const of = models.filter((m) => m.line === line && m.lifecycle !== 'retired').sort(newest);
  return of.find((m) => m.lifecycle === 'active') ?? of[0];
}

/** Ids and aliases closest to what was typed, for "did you mean". */
function closeMatches(models: readonly ModelFacts[], typed: string, max = 5): string[] {
  const t = typed.toLowerCase();
  const names = [...MODEL_LINES, ...models.filter((m) => m.lifecycle !== 'retired').map((m) => m.id)];
  const scored = names.map((n) => ({ n, d: n.includes(t) || (t.length >= 3 && t.includes(n)) ? 0 : distance(t, n) }));
  const best = closest(t, names);
  const limit = Math.max(3, Math.ceil(t.length / 2));
  const picked = scored.filter((s) => s.d <= limit).sort((a, b) => a.d - b.d || a.n.localeCompare(b.n));
  const out = picked.map((s) => s.n);
  return (out.length ? out : [best]).filter((v, i, a) => a.indexOf(v) === i).slice(0, max);
}

function info(requested: string, facts: ModelFacts | undefined, id: string, overrides: ModelOverrides, extra: Partial<ModelInfo> = {}): ModelInfo {
  const window = overrides.contextWindow && overrides.contextWindow > 0 ? overrides.contextWindow : (extra.contextWindow ?? facts?.contextWindow ?? ASSUMED_LIMITS.contextWindow);
  const output = overrides.maxOutputTokens && overrides.maxOutputTokens > 0 ? overrides.maxOutputTokens : (facts?.maxOutputTokens ?? ASSUMED_LIMITS.maxOutputTokens);
  return {
    id,
    requested,
    displayName: facts?.displayName ?? id,
    contextWindow: window,
    maxOutputTokens: output,
    lifecycle: facts?.lifecycle ?? 'active',
    ...(facts?.retiresAt ? { retiresAt: facts.retiresAt } : {}),
    ...(facts?.thinking ? { thinking: facts.thinking } : {}),
    betas: extra.betas ?? [],
    known: facts !== undefined,
    price: priceFor(id),
  };
}

/**
 * Resolves what the user typed against a list of models. `live`: the list came from the
 * Models API (now or cached), so an id it does not know is refused; otherwise the list is the
 * fallback table, and an unknown id is used as it is with a warning.
 */
export function resolveIn(models: readonly ModelFacts[], live: boolean, typed: string, overrides: ModelOverrides = {}): Resolution {
  const requested = typed.trim();
  if (!requested) return { ok: false, error: 'No model is set.', suggestions: [...MODEL_LINES] };
  const wants1m = /\[1m\]$/i.test(requested);
  const name = requested.replace(/\[1m\]$/i, '');
  const alias = (MODEL_LINES as readonly string[]).includes(name.toLowerCase()) ? name.toLowerCase() : undefined;
  const facts = alias ? newestOfLine(models, alias) : findModel(models, name);
  if (alias && !facts) return { ok: false, error: `No ${alias} model is available${live ? ' from the API' : ''}.`, suggestions: closeMatches(models, name) };

  if (!facts) {
    if (live) {
      const suggestions = closeMatches(models, name);
      return { ok: false, error: `The API does not know the model "${name}". Close matches: ${suggestions.join(', ')}.`, suggestions };
    }
    const model = info(requested, undefined, name, overrides, wants1m ? { contextWindow: ONE_MILLION, betas: [CONTEXT_1M_BETA] } : {});
    return {
      ok: true,
      model,
      warning: `"${name}" is not in Threadline's built-in model table and the model list could not be fetched; assuming a ${formatTokens(model.contextWindow)} window${overrides.contextWindow ? ' (from your setting)' : ''}.`,
    };
  }

  // An undated alias the API accepts is sent as typed; a line alias as the model it names.
  const id = alias ? facts.id : name;
  if (facts.lifecycle === 'retired') {
    const successor = facts.line ? newestOfLine(models, facts.line) : undefined;
    const suggestions = successor ? [successor.id] : closeMatches(models, name);
    return { ok: false, error: `${facts.displayName} (${facts.id}) was retired${facts.retiresAt ? ` on ${day(facts.retiresAt)}` : ''}; requests naming it fail.${successor ? ` Its successor is ${successor.id}.` : ''}`, suggestions };
  }
  let extra: Partial<ModelInfo> = {};
  if (wants1m) {
    const window = facts.contextWindow ?? 0;
    if (window < ONE_MILLION && !supports1m(facts.id)) {
      return { ok: false, error: `${facts.displayName} has no 1M-context variant.`, suggestions: [facts.id] };
    }
    extra = window < ONE_MILLION ? { contextWindow: ONE_MILLION, betas: [CONTEXT_1M_BETA] } : {};
  }
  const model = info(requested, facts, id, overrides, extra);
  if (facts.lifecycle === 'deprecated') {
    const successor = facts.line ? newestOfLine(models, facts.line) : undefined;
    const when = facts.retiresAt ? `retires on ${day(facts.retiresAt)}` : 'will be retired';
    const next = successor && successor.id !== facts.id ? successor.id : undefined;
    return { ok: true, model, warning: `${facts.displayName} is deprecated and ${when}.${next ? ` Switch to ${next}.` : ''}`, ...(next ? { successor: next } : {}) };
  }
  return { ok: true, model };
}

/** Where the agent gets its model from: the catalog, or the table alone (tests, forks). */
export interface ModelSource {
  /** Synchronous, from what is known now; never refuses. */
  current(idOrAlias: string, overrides?: ModelOverrides): ModelInfo;
  /** Before a request: loads what is due and refuses an id the API does not know. */
  resolve?(idOrAlias: string, overrides?: ModelOverrides): Promise<Resolution>;
}

/**
 * Synchronous lookup in the built-in table only (the start-up state before any list is known).
 * Never refuses: an unknown id gets the assumed limits.
 */
export function resolveModel(id: string, overrides: ModelOverrides = {}): ModelInfo {
  const r = resolveIn(FALLBACK_MODELS, false, id, overrides);
  return r.ok ? r.model : info(id, undefined, id, overrides);
}

/** The built-in table as a model source (no Models API). */
export const tableModels: ModelSource = { current: resolveModel };

/**
 * The model the settings name now (`sonnet` resolved to its newest model, the user's window
 * override applied), as the catalog knows it. Requests, thresholds, the summary and the system
 * prompt all ask this one function, so they never disagree about the model in use.
 */
export function currentModel(settings: { model: string; contextWindow: number }, models: ModelSource = tableModels): ModelInfo {
  return models.current(settings.model, { contextWindow: settings.contextWindow });
}
