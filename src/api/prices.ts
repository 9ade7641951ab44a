/** US dollars per million tokens. */
export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

// Cache writes (5-minute TTL, the only one we request) cost 1.25x the input price and cache
// reads 0.1x: Anthropic's prompt-caching pricing, as also quoted in the reference CLI's bundled
// prompt-caching guide (@anthropic-ai/claude-code 2.1.197).
const withCache = (input: number, output: number): Price => ({ input, output, cacheWrite: input * 1.25, cacheRead: input / 10 });

/**
 * List prices by model, for the cost shown. Source: the "Current Models" table bundled with the
 * reference CLI (@anthropic-ai/claude-code 2.1.197, marked "cached: 2026-06-24"), and for the
 * older models Anthropic's pricing page as carried by Threadline's earlier table. Checked
 * 2026-11-23. Models not listed here (the 5.5 line, Fable 5.1 and 5.2, Opus 5: the SDK knows
 * their ids but no published price was available) have no price: callers show tokens and say
 * the price is unknown rather than guess.
 */
const PRICES: ReadonlyArray<readonly [string, Price]> = [
  ['claude-fable-5', withCache(10, 50)],
  ['claude-mythos-5', withCache(10, 50)],
  ['claude-opus-4-8', withCache(5, 25)],
  ['claude-opus-4-7', withCache(5, 25)],
  ['claude-opus-4-6', withCache(5, 25)],
  ['claude-opus-4-5', withCache(5, 25)],
  ['claude-opus-4-1', withCache(15, 75)],
  ['claude-opus-4-0', withCache(15, 75)],
  ['claude-opus-4', withCache(15, 75)],
  // Sonnet 5's introductory $2/$10 ended on 2026-08-31.
  ['claude-sonnet-5', withCache(3, 15)],
  ['claude-sonnet-4-6', withCache(3, 15)],
  ['claude-sonnet-4-5', withCache(3, 15)],
  ['claude-sonnet-4-0', withCache(3, 15)],
  ['claude-sonnet-4', withCache(3, 15)],
  ['claude-haiku-4-5', withCache(1, 5)],
  ['claude-3-5-haiku', withCache(0.8, 4)],
];

/**
 * Above this many input tokens, a model whose standard window is 200k runs on the 1M beta,
 * which some models bill at a premium this table does not carry.
 */
const LONG_CONTEXT_FROM = 200_000;
const LONG_CONTEXT_PREMIUM = new Set(['claude-sonnet-4-6', 'claude-sonnet-4-5', 'claude-sonnet-4-0', 'claude-sonnet-4', 'claude-opus-4-6']);

/** The table's name for a model id: itself, or without its date (`claude-haiku-4-5-20251001`). */
function priced(id: string): readonly [string, Price] | undefined {
  const bare = id.replace(/\[1m\]$/i, '');
  return PRICES.find(([k]) => k === bare) ?? PRICES.find(([k]) => new RegExp(`^${k}-\\d{8}$`).test(bare));
}

export function priceFor(modelId: string): Price | undefined {
  return priced(modelId)?.[1];
}

/** The price of one request, or undefined when it is not known for this model and size. */
export function requestPrice(modelId: string, inputTokens: number): Price | undefined {
  const entry = priced(modelId);
  if (!entry) return undefined;
  if (inputTokens > LONG_CONTEXT_FROM && LONG_CONTEXT_PREMIUM.has(entry[0])) return undefined;
  return entry[1];
}
