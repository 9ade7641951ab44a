import { currentModel, DEFAULT_MODEL } from '../api/models';
import { DEFAULT_THINKING, type ThinkingSetting } from '../api/thinking';
import { thresholdsOf, tokenView } from '../conversation/thresholds';
import type { ViewState } from '../shared/viewState';
import { modelViewOf } from './modelView';

export interface AppSettings {
  model: string;
  /** Empty means the SDK's default endpoint. */
  apiBaseUrl: string;
  /** Overrides the model table, for models it does not know. 0 = use the table. */
  contextWindow: number;
  autoCompact: boolean;
  microCompact: boolean;
  /** adaptive: think where the model can; off: do not. */
  thinking: ThinkingSetting;
}

export interface UsageRecord {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
}

/**
 * Everything the session's UI and services react to. The ViewState part is what the
 * chat panel mirrors; the rest stays in the host.
 */
export interface AppState extends ViewState {
  settings: AppSettings;
  lastUsage: UsageRecord | null;
}

const VIEW_KEYS = {
  sessionId: true,
  sessionTitle: true,
  model: true,
  modelView: true,
  status: true,
  messages: true,
  tokens: true,
  permission: true,
  apiKeySet: true,
  workspaceTrusted: true,
  canContinue: true,
  history: true,
  retry: true,
  attachments: true,
  fileChoices: true,
  recent: true,
  mcpServers: true,
  restore: true,
  summarize: true,
} as const satisfies Record<keyof ViewState, true>;

const viewKeys = Object.keys(VIEW_KEYS) as (keyof ViewState)[];

export function pickView(state: AppState): ViewState {
  const out: Partial<Record<keyof ViewState, unknown>> = {};
  for (const key of viewKeys) out[key] = state[key];
  return out as ViewState;
}

export function getDefaultSettings(): AppSettings {
  return { model: DEFAULT_MODEL, apiBaseUrl: '', contextWindow: 0, autoCompact: true, microCompact: true, thinking: DEFAULT_THINKING };
}

export function getDefaultAppState(init: { sessionId: string; settings?: Partial<AppSettings> }): AppState {
  const settings = { ...getDefaultSettings(), ...init.settings };
  // Before any session has the catalog, the built-in table answers.
  const model = currentModel(settings);
  return {
    sessionId: init.sessionId,
    sessionTitle: 'New session',
    model: settings.model,
    modelView: modelViewOf(model, settings.thinking),
    status: 'idle',
    messages: [],
    tokens: tokenView(0, thresholdsOf(model)),
    permission: null,
    apiKeySet: false,
    workspaceTrusted: true,
    canContinue: false,
    history: null,
    retry: null,
    attachments: [],
    fileChoices: null,
    recent: [],
    mcpServers: [],
    restore: null,
    summarize: null,
    settings,
    lastUsage: null,
  };
}
