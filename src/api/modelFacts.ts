export type Lifecycle = 'active' | 'deprecated' | 'retired';

/** Which `thinking.type` values a model accepts (the Models API's `capabilities.thinking.types`). */
export interface ThinkingSupport {
  adaptive: boolean;
  enabled: boolean;
  /** False on models whose thinking is always on. */
  disabled: boolean;
}

/** One model as the Models API (or the fallback table) describes it. */
export interface ModelFacts {
  id: string;
  displayName: string;
  /** opus, sonnet, haiku, fable…; the API says not to infer it from the id. */
  line: string | null;
  /** ISO date or date-time; the newest of a line is the one its alias names. */
  releasedAt: string;
  lifecycle: Lifecycle;
  deprecatedAt?: string;
  retiresAt?: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  /** Undefined: not known, so no `thinking` is sent (the model's default applies). */
  thinking?: ThinkingSupport;
}
