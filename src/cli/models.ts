import { join } from 'node:path';
import { MessagesClient } from '../api/messagesClient';
import { ModelCatalog } from '../api/modelCatalog';
import { cliStateDir } from '../sessions/paths';

/** Listing the models must not hold up a run for the SDK's ten-minute default. */
const LIST_TIMEOUT_MS = 15_000;

/**
 * The CLI's model catalog, cached beside its sessions. Without a key it does not fetch (the
 * cache, else the built-in table): `threadline context` never goes to the network.
 */
export function cliModelCatalog(env: NodeJS.ProcessEnv, apiKey: string | undefined): ModelCatalog {
  const baseUrl = env.ANTHROPIC_BASE_URL || undefined;
  return new ModelCatalog({
    cachePath: join(cliStateDir(env), 'models.json'),
    endpoint: baseUrl ?? '',
    ...(apiKey ? { fetch: (signal: AbortSignal) => new MessagesClient({ apiKey, baseUrl, timeoutMs: LIST_TIMEOUT_MS }).listModels(signal) } : {}),
  });
}
