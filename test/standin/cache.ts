// Prompt-cache simulation after Anthropic's documented rules, so tests can check that the
// extension places breakpoints where they pay off, without a real account.
//
// Each prefix of the prompt (tools → system → messages, block by block) has a chained hash.
// Entries are stored only at breakpoint positions. On lookup each breakpoint also looks
// back up to LOOKBACK_BLOCKS earlier positions, as the API does, so a breakpoint that moved
// to the newest message still reads what the previous request wrote. Not simulated: the
// API's per-organisation/workspace isolation, thinking-block invalidation rules and
// tool_choice/image changes busting the cache (they change the hashed content here anyway
// only when they are part of a block).
import { createHash } from 'node:crypto';
import type { PromptSegment } from './tokens';

const LOOKBACK_BLOCKS = 20;
const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;

// Smallest cacheable prefix by model family (documented table; unknown models get 1024).
const MIN_CACHEABLE: ReadonlyArray<readonly [RegExp, number]> = [
  [/haiku-4-5|opus-4-5/, 4096],
  [/3-5-haiku|3-haiku|haiku-3/, 2048],
];

export function minCacheableTokens(model: string): number {
  for (const [re, n] of MIN_CACHEABLE) if (re.test(model)) return n;
  return 1024;
}

export interface CacheUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

interface Entry {
  expiresAt: number;
  ttl: '5m' | '1h';
}

export class PromptCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Looks the prompt up, stores what it writes, and returns the usage split. */
  apply(model: string, segments: readonly PromptSegment[]): CacheUsage {
    const now = this.now();
    const hashes: string[] = [];
    const prefixTokens: number[] = [];
    // The cache is per model: the model id seeds the chain.
    let h = createHash('sha256').update(`model:${model}`).digest('hex');
    let sum = 0;
    for (const s of segments) {
      h = createHash('sha256').update(h).update('\u0000').update(s.key).digest('hex');
      hashes.push(h);
      sum += s.tokens;
      prefixTokens.push(sum);
    }
    const total = sum;
    const breakpoints = segments.flatMap((s, i) => (s.cacheTtl ? [i] : []));
    const none: CacheUsage = {
      input_tokens: total,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    };
    if (breakpoints.length === 0) return none;

    const live = (i: number): Entry | undefined => {
      const e = this.entries.get(hashes[i] ?? '');
      if (!e) return undefined;
      if (e.expiresAt <= now) {
        this.entries.delete(hashes[i] ?? '');
        return undefined;
      }
      return e;
    };

    // Longest hit over all breakpoints and their look-back windows.
    let hit = -1;
    for (const bp of breakpoints) {
      for (let i = bp; i >= 0 && i >= bp - LOOKBACK_BLOCKS; i--) {
        if (i <= hit) break;
        if (live(i)) {
          hit = i;
          break;
        }
      }
    }
    const read = hit >= 0 ? (prefixTokens[hit] ?? 0) : 0;
    if (hit >= 0) {
      const e = live(hit);
      // A hit refreshes the entry's lifetime, at no cost.
      if (e) e.expiresAt = now + TTL_MS[e.ttl];
    }

    const min = minCacheableTokens(model);
    let written5m = 0;
    let written1h = 0;
    let from = read;
    for (const bp of breakpoints) {
      if (bp <= hit) continue;
      const upTo = prefixTokens[bp] ?? 0;
      // A prefix below the minimum is processed uncached and nothing is stored for it.
      if (upTo < min) continue;
      const ttl = segments[bp]?.cacheTtl ?? '5m';
      if (ttl === '1h') written1h += upTo - from;
      else written5m += upTo - from;
      from = upTo;
      this.entries.set(hashes[bp] ?? '', { expiresAt: now + TTL_MS[ttl], ttl });
    }
    const written = written5m + written1h;
    return {
      input_tokens: total - read - written,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: written,
      cache_creation: { ephemeral_5m_input_tokens: written5m, ephemeral_1h_input_tokens: written1h },
    };
  }
}
