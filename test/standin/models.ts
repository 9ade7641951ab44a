// The Models API of the stand-in: `GET /v1/models` (newest first, paginated by `limit`,
// `after_id` / `before_id`, filtered by `lifecycle`) and `GET /v1/models/{id}`, in the shape of
// the SDK's `ModelInfo`. The default catalog names the models the SDK 1.12 knows; their limits
// and dates are the stand-in's own where nothing published says otherwise (tests that care set
// their own catalog with `setModels`).
import type Anthropic from '@anthropic-ai/sdk';
import type { ThinkingTypesSupport } from './thinking';

export type ApiModel = Anthropic.ModelInfo;
type Lifecycle = ApiModel['lifecycle'];

export interface ModelSpec {
  id: string;
  line: ApiModel['line'];
  /** ISO date of release; the list is ordered by it, newest first. */
  created: string;
  window: number;
  maxTokens: number;
  lifecycle?: Lifecycle;
  deprecatedAt?: string;
  retiresAt?: string;
  displayName?: string;
  thinking?: Partial<ThinkingTypesSupport>;
}

const yes = { supported: true };
const no = { supported: false };
const support = (b: boolean | undefined) => (b ? yes : no);

/** "claude-opus-4-5-20251101" → "Claude Opus 4.5". */
function displayNameOf(id: string): string {
  const words: string[] = [];
  for (const part of id.split('-')) {
    if (/^\d{8}$/.test(part)) continue;
    const prev = words.at(-1);
    if (/^\d+$/.test(part) && prev !== undefined && /^\d[\d.]*$/.test(prev)) words[words.length - 1] = `${prev}.${part}`;
    else words.push(/^\d/.test(part) ? part : part.charAt(0).toUpperCase() + part.slice(1));
  }
  return words.join(' ');
}

/** The model with this id, or the dated model an undated alias names (`claude-haiku-4-5`). */
export function findModel(all: readonly ApiModel[], id: string): ApiModel | undefined {
  return all.find((m) => m.id === id) ?? all.find((m) => m.id.startsWith(`${id}-`) && /^\d{8}$/.test(m.id.slice(id.length + 1)));
}

/** A full `ModelInfo` (every capability key present, as the API promises) from a short spec. */
export function standinModel(s: ModelSpec): ApiModel {
  const t = { adaptive: false, enabled: false, disabled: true, between_tools: false, ...s.thinking };
  return {
    type: 'model',
    id: s.id,
    display_name: s.displayName ?? displayNameOf(s.id),
    created_at: `${s.created}T00:00:00Z`,
    lifecycle: s.lifecycle ?? 'active',
    deprecated_at: s.deprecatedAt ? `${s.deprecatedAt}T00:00:00Z` : null,
    retires_at: s.retiresAt ? `${s.retiresAt}T00:00:00Z` : null,
    line: s.line,
    max_input_tokens: s.window,
    max_tokens: s.maxTokens,
    capabilities: {
      batch: yes,
      citations: yes,
      code_execution: no,
      context_management: { supported: true, clear_thinking_20251015: yes, clear_tool_uses_20250919: yes, compact_20260112: no },
      effort: { supported: t.adaptive, low: support(t.adaptive), medium: support(t.adaptive), high: support(t.adaptive), max: support(t.adaptive), xhigh: null },
      image_input: yes,
      pdf_input: yes,
      server_tools: { supported: false, code_execution: no, web_search: no },
      structured_outputs: yes,
      thinking: {
        supported: t.adaptive || t.enabled,
        types: { adaptive: support(t.adaptive), enabled: support(t.enabled), disabled: support(t.disabled), between_tools: support(t.between_tools) },
      },
    },
  };
}

const ADAPTIVE_ONLY = { adaptive: true, enabled: false, disabled: true };
const ADAPTIVE_AND_BUDGET = { adaptive: true, enabled: true, disabled: true };
const BUDGET_ONLY = { adaptive: false, enabled: true, disabled: true };

/**
 * Ids are the SDK 1.12 `Model` list; release dates follow the SDK changelog entries that added
 * them; the 4.x limits, lifecycles and thinking types follow the reference CLI's model table
 * (2.1.197). `standin-test-model` is a model of the stand-in's own that end-to-end tests name.
 */
export const DEFAULT_MODEL_SPECS: readonly ModelSpec[] = [
  { id: 'claude-fable-5-2', line: 'fable', created: '2026-11-09', window: 1_000_000, maxTokens: 128_000, thinking: { adaptive: true, disabled: false } },
  { id: 'claude-haiku-5-5', line: 'haiku', created: '2026-10-07', window: 400_000, maxTokens: 64_000, thinking: ADAPTIVE_ONLY },
  { id: 'claude-sonnet-5-5', line: 'sonnet', created: '2026-09-28', window: 1_000_000, maxTokens: 128_000, thinking: ADAPTIVE_ONLY },
  { id: 'claude-opus-5-5', line: 'opus', created: '2026-09-22', window: 1_000_000, maxTokens: 128_000, thinking: ADAPTIVE_ONLY },
  { id: 'claude-opus-5', line: 'opus', created: '2026-07-24', window: 1_000_000, maxTokens: 128_000, thinking: ADAPTIVE_ONLY },
  { id: 'claude-sonnet-5', line: 'sonnet', created: '2026-06-30', window: 1_000_000, maxTokens: 128_000, thinking: ADAPTIVE_ONLY },
  { id: 'claude-fable-5', line: 'fable', created: '2026-06-09', window: 1_000_000, maxTokens: 128_000, thinking: { adaptive: true, disabled: false } },
  { id: 'claude-opus-4-8', line: 'opus', created: '2026-05-28', window: 1_000_000, maxTokens: 128_000, thinking: ADAPTIVE_ONLY },
  { id: 'claude-opus-4-7', line: 'opus', created: '2026-04-16', window: 1_000_000, maxTokens: 128_000, thinking: ADAPTIVE_ONLY },
  { id: 'claude-sonnet-4-6', line: 'sonnet', created: '2026-02-17', window: 200_000, maxTokens: 128_000, thinking: ADAPTIVE_AND_BUDGET },
  { id: 'claude-opus-4-6', line: 'opus', created: '2026-02-05', window: 200_000, maxTokens: 128_000, thinking: ADAPTIVE_AND_BUDGET },
  { id: 'claude-opus-4-5-20251101', line: 'opus', created: '2025-11-24', window: 200_000, maxTokens: 64_000, thinking: BUDGET_ONLY },
  { id: 'claude-haiku-4-5-20251001', line: 'haiku', created: '2025-10-01', window: 200_000, maxTokens: 64_000, thinking: BUDGET_ONLY },
  {
    id: 'claude-sonnet-4-5-20250929',
    line: 'sonnet',
    created: '2025-09-29',
    window: 200_000,
    maxTokens: 64_000,
    lifecycle: 'deprecated',
    deprecatedAt: '2026-08-01',
    retiresAt: '2026-11-30',
    thinking: BUDGET_ONLY,
  },
  { id: 'claude-opus-4-1-20250805', line: 'opus', created: '2025-08-05', window: 200_000, maxTokens: 32_000, lifecycle: 'retired', deprecatedAt: '2026-02-05', retiresAt: '2026-08-05', thinking: BUDGET_ONLY },
  { id: 'claude-3-5-haiku-20241022', line: 'haiku', created: '2024-10-22', window: 200_000, maxTokens: 8_192, lifecycle: 'retired', deprecatedAt: '2025-10-01', retiresAt: '2026-02-19' },
  { id: 'standin-test-model', line: null, created: '2024-01-01', window: 200_000, maxTokens: 32_000 },
];

export const defaultModels = (): ApiModel[] => DEFAULT_MODEL_SPECS.map(standinModel);

export type ModelsAnswer = { status: 200; body: unknown } | { status: 400 | 404; message: string; type: string };

const newestFirst = (a: ApiModel, b: ApiModel) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? -1 : 1);

/** `lifecycle[]=x` (the SDK's bracket form) or repeated `lifecycle=x`. */
function lifecycles(query: URLSearchParams): Lifecycle[] | string {
  const raw = [...query.getAll('lifecycle[]'), ...query.getAll('lifecycle')].flatMap((v) => v.split(','));
  if (raw.length === 0) return ['active', 'deprecated'];
  if (raw.length > 3) return 'lifecycle: List should have at most 3 items';
  for (const v of raw) if (v !== 'active' && v !== 'deprecated' && v !== 'retired') return `lifecycle: Input should be 'active', 'deprecated' or 'retired'`;
  return raw as Lifecycle[];
}

export function listModels(all: readonly ApiModel[], query: URLSearchParams): ModelsAnswer {
  const bad = (message: string): ModelsAnswer => ({ status: 400, message, type: 'invalid_request_error' });
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? 20 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return bad('limit: Input should be between 1 and 1000');
  const wanted = lifecycles(query);
  if (typeof wanted === 'string') return bad(wanted);
  const after = query.get('after_id');
  const before = query.get('before_id');
  if (after !== null && before !== null) return bad('after_id and before_id cannot both be set');
  // A test may hand over entries of another shape (a proxy's list): they count as active.
  const sorted = all.filter((m) => wanted.includes((m.lifecycle as Lifecycle | undefined) ?? 'active')).sort(newestFirst);
  let page: ApiModel[];
  let hasMore: boolean;
  if (before !== null) {
    const at = sorted.findIndex((m) => m.id === before);
    if (at < 0) return bad(`before_id: no model ${before} in this list`);
    page = sorted.slice(Math.max(0, at - limit), at);
    hasMore = at - limit > 0;
  } else {
    const at = after === null ? 0 : sorted.findIndex((m) => m.id === after) + 1;
    if (after !== null && at === 0) return bad(`after_id: no model ${after} in this list`);
    page = sorted.slice(at, at + limit);
    hasMore = at + limit < sorted.length;
  }
  return { status: 200, body: { data: page, has_more: hasMore, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null } };
}

export function retrieveModel(all: readonly ApiModel[], id: string): ModelsAnswer {
  const m = findModel(all, id);
  return m ? { status: 200, body: m } : { status: 404, message: `model: ${id}`, type: 'not_found_error' };
}

/** A model's accepted thinking types, or undefined when it is not in the catalog (anything goes). */
export function thinkingSupport(all: readonly ApiModel[], model: string): ThinkingTypesSupport | undefined {
  const t = findModel(all, model)?.capabilities?.thinking.types;
  if (!t) return undefined;
  return { adaptive: t.adaptive.supported, enabled: t.enabled.supported, disabled: t.disabled.supported, between_tools: t.between_tools.supported };
}
