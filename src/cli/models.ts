import { join } from 'node:path';
import { MessagesClient } from '../api/messagesClient';
import { ModelCatalog, type CatalogSnapshot } from '../api/modelCatalog';
import { cliStateDir } from '../sessions/paths';

/** Listing the models must not hold up a run for the SDK's ten-minute default. */
const LIST_TIMEOUT_MS = 15_000;

/**
 * The CLI's model catalog, cached beside its sessions. Without a key it does not fetch (the
 * cache, else the built-in table).
 */
export function cliModelCatalog(env: NodeJS.ProcessEnv, apiKey: string | undefined): ModelCatalog {
  const baseUrl = env.ANTHROPIC_BASE_URL || undefined;
  return new ModelCatalog({
    cachePath: join(cliStateDir(env), 'models.json'),
    endpoint: baseUrl ?? '',
    ...(apiKey ? { fetch: (signal: AbortSignal) => new MessagesClient({ apiKey, baseUrl, timeoutMs: LIST_TIMEOUT_MS }).listModels(signal) } : {}),
  });
}

/** Where `threadline context` got the context window from, as a kind (for --json) and in words. */
export function windowSource(snapshot: CatalogSnapshot, o: { setting: boolean; keyed: boolean }): { kind: 'setting' | 'models-api' | 'models-api-cache' | 'table'; text: string } {
  if (o.setting) return { kind: 'setting', text: '--context-window' };
  const day = (ms: number | undefined) => (ms ? new Date(ms).toISOString().slice(0, 10) : 'an unknown date');
  const failed = snapshot.error ? ` (asking it now failed: ${snapshot.error})` : '';
  if (snapshot.source === 'api') return { kind: 'models-api', text: 'the Models API, asked just now' };
  if (snapshot.source === 'cache') return { kind: 'models-api-cache', text: `the Models API's list as cached on ${day(snapshot.fetchedAt)}${failed}` };
  const why = o.keyed ? failed || '' : ' (no ANTHROPIC_API_KEY to ask the Models API; set it, or pass --context-window)';
  return { kind: 'table', text: `Threadline's built-in model table, which can differ from what the API says${why}` };
}
