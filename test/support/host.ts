import type { Host } from '../../src/ports/host';

/**
 * A host for tests: trusted, the given key and base URL, nothing asked (includes from outside the
 * project are refused), and what it was told kept in `notices`.
 */
export function testHost(over: { apiKey?: string; baseUrl?: string; maxTurns?: number; trusted?: boolean; approveExternal?: Host['approveExternal'] } = {}): Host & { notices: string[] } {
  const notices: string[] = [];
  return {
    notices,
    isTrusted: () => over.trusted ?? true,
    apiKey: async () => over.apiKey,
    baseUrl: () => over.baseUrl ?? '',
    settings: { maxTurns: () => over.maxTurns ?? 5, save: async () => undefined },
    notify: (level, text) => void notices.push(`${level}: ${text}`),
    approveExternal: over.approveExternal ?? (async () => false),
  };
}
