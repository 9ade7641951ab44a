// What the panel's Context view draws. Host and webview both import this file, so it may
// depend on nothing but the language itself.

export interface ContextViewCategory {
  name: string;
  tokens: number;
}

export interface ContextViewFile {
  path: string;
  kind: string;
  status: 'included' | 'conditional' | 'skipped';
  /** Why it was looked at, and why it was skipped or is conditional. */
  detail: string;
  tokens: number;
}

export interface ContextViewRule {
  behavior: string;
  rule: string;
  source: string;
  active: boolean;
}

/** The answer to `context/request`: a picture of the next request, built when asked. */
export interface ContextReport {
  model: string;
  contextWindow: number;
  /** Tokens the next request is expected to hold (the meter's figure). */
  used: number;
  /** Estimated per category (characters / 4); empty when the breakdown failed. */
  categories: ContextViewCategory[];
  /** The breakdown could not be built; the thresholds and usage still show. */
  breakdownError?: string;
  thresholds: { warningAt: number; autoCompactAt: number; blockingAt: number; effectiveWindow: number };
  lastResponse: { cacheRead: number; cacheWrite: number; uncached: number; output: number } | null;
  instructionFiles: ContextViewFile[];
  rules: ContextViewRule[];
  messageCount: number;
}
