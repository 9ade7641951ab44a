import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { readStateText } from '../fs/read';
import { writeFileAtomic } from '../fs/write';
import { Emitter, type Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import { FALLBACK_MODELS } from './modelTable';
import { resolveIn, resolveModel, type ModelFacts, type ModelInfo, type ModelOverrides, type Resolution } from './models';
import { parseJson } from '../fs/jsonText';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** After a failed fetch, the next one waits this long (unless forced). */
const RETRY_AFTER_FAILURE_MS = 10 * 60 * 1000;
const CACHE_VERSION = 1;

export interface CatalogSnapshot {
  /** Every model known, retired ones included, newest first. */
  models: readonly ModelFacts[];
  /** api: fetched in this process; cache: read from disk; table: the built-in fallback. */
  source: 'api' | 'cache' | 'table';
  /** When the list was fetched from the API (epoch ms), for api and cache. */
  fetchedAt?: number;
  /** Why the last fetch failed, if it did. */
  error?: string;
}

export interface ModelCatalogOptions {
  /**
   * Lists the models (MessagesClient.listModels); resolves undefined when it cannot be asked
   * now (no API key yet). Undefined: never fetch (the table and the cache only).
   */
  fetch?: (signal: AbortSignal) => Promise<Anthropic.ModelInfo[] | undefined>;
  /** Where the list is cached between runs (a file the caller owns). */
  cachePath?: string;
  /** The endpoint the list belongs to; a cache written for another endpoint is ignored. */
  endpoint?: string;
  now?: () => number;
  /** How old a list may be before it is fetched again (default one day). */
  maxAgeMs?: number;
  log?: (message: string) => void;
}

const factsSchema = z.object({
  id: z.string().min(1),
  displayName: z.string(),
  line: z.string().nullable(),
  releasedAt: z.string(),
  lifecycle: z.enum(['active', 'deprecated', 'retired']),
  deprecatedAt: z.string().optional(),
  retiresAt: z.string().optional(),
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  thinking: z.object({ adaptive: z.boolean(), enabled: z.boolean(), disabled: z.boolean() }).optional(),
});

const cacheSchema = z.object({
  version: z.literal(CACHE_VERSION),
  endpoint: z.string(),
  fetchedAt: z.number(),
  models: z.array(factsSchema).min(1),
});

const positive = z.number().int().positive().optional().catch(undefined);
const supported = z.object({ supported: z.boolean() }).optional().catch(undefined);

/**
 * The API's ModelInfo as it arrives, read leniently: a proxy's `/v1/models` may leave fields
 * out or shape them otherwise. Anything unusable becomes "unknown" rather than a crash.
 */
const apiModelSchema = z.object({
  id: z.string().min(1),
  display_name: z.string().optional().catch(undefined),
  created_at: z.string().catch(''),
  lifecycle: z.enum(['active', 'deprecated', 'retired']).catch('active'),
  line: z.string().nullable().catch(null),
  deprecated_at: z.string().nullable().optional().catch(undefined),
  retires_at: z.string().nullable().optional().catch(undefined),
  max_input_tokens: positive.nullable().catch(undefined),
  max_tokens: positive.nullable().catch(undefined),
  capabilities: z
    .object({ thinking: z.object({ types: z.object({ adaptive: supported, enabled: supported, disabled: supported }) }).optional().catch(undefined) })
    .nullable()
    .optional()
    .catch(undefined),
});

/** The API's ModelInfo in our terms (nulls dropped, capabilities reduced to what we use); undefined when unusable. */
function factsFromApi(raw: Anthropic.ModelInfo | unknown): ModelFacts | undefined {
  const parsed = apiModelSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const m = parsed.data;
  const t = m.capabilities?.thinking?.types;
  return {
    id: m.id,
    displayName: m.display_name || m.id,
    line: m.line,
    releasedAt: m.created_at,
    lifecycle: m.lifecycle,
    ...(m.deprecated_at ? { deprecatedAt: m.deprecated_at } : {}),
    ...(m.retires_at ? { retiresAt: m.retires_at } : {}),
    ...(m.max_input_tokens ? { contextWindow: m.max_input_tokens } : {}),
    ...(m.max_tokens ? { maxOutputTokens: m.max_tokens } : {}),
    ...(t?.adaptive && t.enabled && t.disabled ? { thinking: { adaptive: t.adaptive.supported, enabled: t.enabled.supported, disabled: t.disabled.supported } } : {}),
  };
}

/**
 * The models Threadline can use, from the Models API: fetched on start and at most once a day,
 * cached on disk with the time it was fetched, the built-in table only when neither is
 * available. `current()` answers synchronously from the last known list (what thresholds and
 * the status bar need); `resolve()` waits for the start-up load and refuses an id the API does
 * not know. `onDidChange` fires when the list changes, so windows and pickers can follow.
 */
export class ModelCatalog implements IDisposable {
  private state: CatalogSnapshot = { models: FALLBACK_MODELS, source: 'table' };
  private readonly changed = new Emitter<CatalogSnapshot>();
  readonly onDidChange: Event<CatalogSnapshot> = this.changed.event;
  private loading: Promise<CatalogSnapshot> | undefined;
  private cacheRead = false;
  private lastFailureAt: number | undefined;
  private readonly abort = new AbortController();
  private readonly now: () => number;

  constructor(private readonly opts: ModelCatalogOptions = {}) {
    this.now = opts.now ?? Date.now;
  }

  snapshot(): CatalogSnapshot {
    return this.state;
  }

  /** Models to offer (a picker): not retired, newest first. */
  list(): ModelFacts[] {
    return this.state.models.filter((m) => m.lifecycle !== 'retired');
  }

  /**
   * Reads the cache once, then fetches when the list is older than a day (or `force`). Never
   * throws: a failed fetch keeps what was known and is reported in the snapshot's `error`.
   */
  refresh(options: { force?: boolean } = {}): Promise<CatalogSnapshot> {
    this.loading ??= this.load(options.force ?? false).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /** Synchronous, from the last known list; never refuses (resolve() does that before sending). */
  current(idOrAlias: string, overrides: ModelOverrides = {}): ModelInfo {
    const r = resolveIn(this.state.models, this.state.source !== 'table', idOrAlias, overrides);
    return r.ok ? r.model : resolveModel(idOrAlias, overrides);
  }

  /** Loads the list if it is due, then resolves: refused when the API's list does not know the id. */
  async resolve(idOrAlias: string, overrides: ModelOverrides = {}): Promise<Resolution> {
    await this.refresh();
    return resolveIn(this.state.models, this.state.source !== 'table', idOrAlias, overrides);
  }

  dispose(): void {
    this.abort.abort();
    this.changed.dispose();
  }

  private async load(force: boolean): Promise<CatalogSnapshot> {
    if (!this.cacheRead) {
      this.cacheRead = true;
      const cached = await this.readCache();
      if (cached) this.set(cached);
    }
    const maxAge = this.opts.maxAgeMs ?? DAY_MS;
    const fresh = this.state.fetchedAt !== undefined && this.now() - this.state.fetchedAt < maxAge;
    const backingOff = this.lastFailureAt !== undefined && this.now() - this.lastFailureAt < RETRY_AFTER_FAILURE_MS;
    if (!this.opts.fetch || (!force && (fresh || backingOff))) return this.state;
    try {
      const listed = await this.opts.fetch(this.abort.signal);
      if (!listed) return this.state;
      if (listed.length === 0) throw new Error('the API listed no models');
      const fetchedAt = this.now();
      const models = listed.map(factsFromApi).filter((m): m is ModelFacts => m !== undefined);
      if (models.length === 0) throw new Error('the API listed no usable models');
      this.lastFailureAt = undefined;
      this.set({ models, source: 'api', fetchedAt });
      await this.writeCache(models, fetchedAt);
    } catch (err) {
      this.lastFailureAt = this.now();
      const error = err instanceof Error ? err.message : String(err);
      this.opts.log?.(`could not list models: ${error}`);
      this.set({ ...this.state, error });
    }
    return this.state;
  }

  private set(next: CatalogSnapshot): void {
    this.state = next;
    this.changed.fire(next);
  }

  private async readCache(): Promise<CatalogSnapshot | undefined> {
    if (!this.opts.cachePath) return undefined;
    const text = await readStateText(this.opts.cachePath);
    if (text === undefined) return undefined;
    let parsed: z.infer<typeof cacheSchema>;
    try {
      parsed = cacheSchema.parse(parseJson(text));
    } catch (err) {
      this.opts.log?.(`ignoring the model cache ${this.opts.cachePath}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      return undefined;
    }
    if (parsed.endpoint !== (this.opts.endpoint ?? '')) return undefined;
    // A date in the future (a clock set back, a hand-edited file) does not make the list fresh.
    const fetchedAt = parsed.fetchedAt > this.now() ? 0 : parsed.fetchedAt;
    return { models: parsed.models.map((m) => stripUndefined(m)), source: 'cache', fetchedAt };
  }

  private async writeCache(models: ModelFacts[], fetchedAt: number): Promise<void> {
    if (!this.opts.cachePath) return;
    try {
      await writeFileAtomic(this.opts.cachePath, `${JSON.stringify({ version: CACHE_VERSION, endpoint: this.opts.endpoint ?? '', fetchedAt, models })}\n`);
    } catch (err) {
      this.opts.log?.(`could not write the model cache: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

function stripUndefined(m: z.infer<typeof factsSchema>): ModelFacts {
  return Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)) as unknown as ModelFacts;
}
