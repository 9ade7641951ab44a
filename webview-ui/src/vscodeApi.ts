import type { WebviewToHostMessage } from '../../src/shared/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

// acquireVsCodeApi may be called once per webview; everything goes through this module.
const api: VsCodeApi =
  typeof acquireVsCodeApi === 'function'
    ? acquireVsCodeApi()
    : { postMessage: () => undefined, getState: () => undefined, setState: () => undefined };

export function post(message: WebviewToHostMessage): void {
  api.postMessage(message);
}

/** The webview's own copy of the open session's draft and scroll anchor (see sessionUi.ts). */
interface PersistedUi {
  draft?: unknown;
  scroll?: unknown;
}

export function loadUi(): PersistedUi {
  const s = api.getState();
  return typeof s === 'object' && s !== null ? (s as PersistedUi) : {};
}

export function saveUi(patch: PersistedUi): void {
  api.setState({ ...loadUi(), ...patch });
}
