import type { ModelFacts } from './modelFacts';

/** What a table entry adds to the API's facts: whether a `[1m]` variant exists (beta header). */
export interface TableModel extends ModelFacts {
  supports1m?: boolean;
}

const ADAPTIVE_ONLY = { adaptive: true, enabled: false, disabled: true };
const ADAPTIVE_AND_BUDGET = { adaptive: true, enabled: true, disabled: true };
const BUDGET_ONLY = { adaptive: false, enabled: true, disabled: true };
const ALWAYS_ON = { adaptive: true, enabled: false, disabled: false };

/**
 * The offline fallback, used only when the Models API cannot be reached (no key yet, a proxy
 * without it, no network) and no cached list is on disk. Checked 2026-11-23 against:
 * - the reference CLI's model table (@anthropic-ai/claude-code 2.1.197): windows, output limits,
 *   thinking types and the 1M-beta models of the 4.x line, Opus 4.7/4.8, Sonnet 5 and Fable 5;
 * - @anthropic-ai/sdk 1.12.0: the ids of the 5.5 line, Opus 5 and Fable 5.1/5.2 (its `Model`
 *   type, newest first), their release dates (the changelog entries that added them) and
 *   Sonnet 4.5's end of life (2026-11-30, its deprecation warning).
 * The SDK gives no limits for the models it alone names; those rows assume their line's latest
 * known limits, and leave thinking to the model's default (no `thinking` sent).
 */
export const FALLBACK_MODELS: readonly TableModel[] = [
  // @anthropic-ai/sdk 1.12.0 only: limits assumed from the line.
  { id: 'claude-fable-5-2', displayName: 'Claude Fable 5.2', line: 'fable', releasedAt: '2026-11-09', lifecycle: 'active', contextWindow: 1_000_000, maxOutputTokens: 128_000 },
  { id: 'claude-haiku-5-5', displayName: 'Claude Haiku 5.5', line: 'haiku', releasedAt: '2026-10-07', lifecycle: 'active', contextWindow: 200_000, maxOutputTokens: 64_000 },
  { id: 'claude-sonnet-5-5', displayName: 'Claude Sonnet 5.5', line: 'sonnet', releasedAt: '2026-09-28', lifecycle: 'active', contextWindow: 1_000_000, maxOutputTokens: 128_000 },
  // Not in the changelog; placed by its position in the SDK's `Model` type.
  { id: 'claude-fable-5-1', displayName: 'Claude Fable 5.1', line: 'fable', releasedAt: '2026-09-25', lifecycle: 'active', contextWindow: 1_000_000, maxOutputTokens: 128_000 },
  { id: 'claude-opus-5-5', displayName: 'Claude Opus 5.5', line: 'opus', releasedAt: '2026-09-22', lifecycle: 'active', contextWindow: 1_000_000, maxOutputTokens: 128_000 },
  { id: 'claude-opus-5', displayName: 'Claude Opus 5', line: 'opus', releasedAt: '2026-07-24', lifecycle: 'active', contextWindow: 1_000_000, maxOutputTokens: 128_000 },
  // The reference CLI's table (2.1.197).
  { id: 'claude-sonnet-5', displayName: 'Claude Sonnet 5', line: 'sonnet', releasedAt: '2026-06-30', lifecycle: 'active', contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: ADAPTIVE_ONLY },
  { id: 'claude-fable-5', displayName: 'Claude Fable 5', line: 'fable', releasedAt: '2026-06-09', lifecycle: 'active', contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: ALWAYS_ON },
  { id: 'claude-opus-4-8', displayName: 'Claude Opus 4.8', line: 'opus', releasedAt: '2026-05-28', lifecycle: 'active', contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: ADAPTIVE_ONLY },
  { id: 'claude-opus-4-7', displayName: 'Claude Opus 4.7', line: 'opus', releasedAt: '2026-04-16', lifecycle: 'active', contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: ADAPTIVE_ONLY },
  {
    id: 'claude-sonnet-4-6',
    displayName: 'Claude Sonnet 4.6',
    line: 'sonnet',
    releasedAt: '2026-02-17',
    lifecycle: 'active',
    contextWindow: 200_000,
    maxOutputTokens: 128_000,
    thinking: ADAPTIVE_AND_BUDGET,
    supports1m: true,
  },
  { id: 'claude-opus-4-6', displayName: 'Claude Opus 4.6', line: 'opus', releasedAt: '2026-02-05', lifecycle: 'active', contextWindow: 200_000, maxOutputTokens: 128_000, thinking: ADAPTIVE_AND_BUDGET, supports1m: true },
  { id: 'claude-opus-4-5', displayName: 'Claude Opus 4.5', line: 'opus', releasedAt: '2025-11-24', lifecycle: 'active', contextWindow: 200_000, maxOutputTokens: 64_000, thinking: BUDGET_ONLY },
  { id: 'claude-haiku-4-5', displayName: 'Claude Haiku 4.5', line: 'haiku', releasedAt: '2025-10-01', lifecycle: 'active', contextWindow: 200_000, maxOutputTokens: 64_000, thinking: BUDGET_ONLY },
  {
    id: 'claude-sonnet-4-5',
    displayName: 'Claude Sonnet 4.5',
    line: 'sonnet',
    releasedAt: '2025-09-29',
    lifecycle: 'deprecated',
    retiresAt: '2026-11-30',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    thinking: BUDGET_ONLY,
    supports1m: true,
  },
  {
    id: 'claude-opus-4-1',
    displayName: 'Claude Opus 4.1',
    line: 'opus',
    releasedAt: '2025-08-05',
    lifecycle: 'deprecated',
    retiresAt: '2026-08-05',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    thinking: BUDGET_ONLY,
  },
  { id: 'claude-sonnet-4-0', displayName: 'Claude Sonnet 4', line: 'sonnet', releasedAt: '2025-05-22', lifecycle: 'deprecated', contextWindow: 200_000, maxOutputTokens: 64_000, thinking: BUDGET_ONLY, supports1m: true },
  { id: 'claude-opus-4-0', displayName: 'Claude Opus 4', line: 'opus', releasedAt: '2025-05-22', lifecycle: 'deprecated', contextWindow: 200_000, maxOutputTokens: 32_000, thinking: BUDGET_ONLY },
  { id: 'claude-3-5-haiku', displayName: 'Claude Haiku 3.5', line: 'haiku', releasedAt: '2024-10-22', lifecycle: 'retired', retiresAt: '2026-02-19', contextWindow: 200_000, maxOutputTokens: 8_192 },
];

/** Models with a 1M-context beta variant, wherever their facts came from. */
export function supports1m(id: string): boolean {
  return FALLBACK_MODELS.some((m) => m.supports1m && (m.id === id || new RegExp(`^${m.id}-\\d{8}$`).test(id)));
}
