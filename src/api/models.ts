export interface ModelInfo {
  id: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** US dollars per million tokens. */
  price: { input: number; output: number; cacheWrite: number; cacheRead: number };
}

export const DEFAULT_MODEL = 'claude-sonnet-4-6';

// Prices in USD per million tokens; cache writes are 1.25x input (5-minute TTL), reads 0.1x.
const TABLE: readonly ModelInfo[] = [
  // The 4.6 prices are assumed equal to 4.5's; a wrong guess only skews the cost shown.
  { id: 'claude-opus-4-6', contextWindow: 200_000, maxOutputTokens: 64_000, price: { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 } },
  { id: 'claude-sonnet-4-6', contextWindow: 200_000, maxOutputTokens: 64_000, price: { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 } },
  { id: 'claude-opus-4-5', contextWindow: 200_000, maxOutputTokens: 64_000, price: { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 } },
  { id: 'claude-opus-4-1', contextWindow: 200_000, maxOutputTokens: 32_000, price: { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 } },
  { id: 'claude-opus-4', contextWindow: 200_000, maxOutputTokens: 32_000, price: { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 } },
  { id: 'claude-sonnet-4-5', contextWindow: 200_000, maxOutputTokens: 64_000, price: { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 } },
  { id: 'claude-sonnet-4', contextWindow: 200_000, maxOutputTokens: 64_000, price: { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 } },
  { id: 'claude-haiku-4-5', contextWindow: 200_000, maxOutputTokens: 64_000, price: { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 } },
  { id: 'claude-3-5-haiku', contextWindow: 200_000, maxOutputTokens: 8_192, price: { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 } },
];

/** Used for ids the table does not know, unless the user overrides the window. */
export const FALLBACK_MODEL: Omit<ModelInfo, 'id'> = {
  contextWindow: 200_000,
  maxOutputTokens: 32_000,
  price: { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
};

export interface ModelOverrides {
  contextWindow?: number;
  maxOutputTokens?: number;
}

/**
 * Looks a model up by exact id or by a dated id's family prefix
 * (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`); longest prefix wins.
 */
export function resolveModel(id: string, overrides: ModelOverrides = {}): ModelInfo & { known: boolean } {
  const match = [...TABLE].sort((a, b) => b.id.length - a.id.length).find((m) => id === m.id || id.startsWith(`${m.id}-`));
  const base = match ?? { ...FALLBACK_MODEL, id };
  return {
    ...base,
    id,
    known: match !== undefined,
    contextWindow: overrides.contextWindow && overrides.contextWindow > 0 ? overrides.contextWindow : base.contextWindow,
    maxOutputTokens: overrides.maxOutputTokens && overrides.maxOutputTokens > 0 ? overrides.maxOutputTokens : base.maxOutputTokens,
  };
}
