import { join } from 'node:path';
import { FollowingCatalog } from '../api/followingCatalog';
import { MessagesClient } from '../api/messagesClient';
import { ModelCatalog } from '../api/modelCatalog';
import type { Logger } from '../ports/logger';
import { subscribeSelector, type Store } from '../shared/store';
import type { AppState } from '../state/appState';
import type { ApiKeyStore } from './apiKey';

/** Listing the models must not wait the SDK's ten-minute default on a dead endpoint. */
const LIST_TIMEOUT_MS = 15_000;

/**
 * The Models API's list for this editor: cached in global storage (shared by its windows), asked
 * for with the stored key at the configured endpoint; the built-in table until then. A changed
 * `threadline.apiBaseUrl` brings the list of the new endpoint.
 */
export function createModelCatalog(deps: { globalStorageDir: string; apiKeys: ApiKeyStore; store: Store<AppState>; log: Logger }): FollowingCatalog {
  return new FollowingCatalog(
    (endpoint) =>
      new ModelCatalog({
        cachePath: join(deps.globalStorageDir, 'models.json'),
        endpoint,
        fetch: async (signal) => {
          const apiKey = await deps.apiKeys.get();
          return apiKey ? new MessagesClient({ apiKey, baseUrl: endpoint, timeoutMs: LIST_TIMEOUT_MS }).listModels(signal) : undefined;
        },
        log: (message) => deps.log.warn(`models: ${message}`),
      }),
    { initial: deps.store.getState().settings.apiBaseUrl, watch: (onChange) => subscribeSelector(deps.store, (s) => s.settings.apiBaseUrl, onChange) },
  );
}
