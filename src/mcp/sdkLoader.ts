import type { Connect } from './connection';

let loaded: Promise<Connect> | undefined;

/**
 * The connection layer, loaded on first use. The build makes `./sdk/index` a bundle of its own
 * (dist/mcp.js, see scripts/build.mjs): the SDK is a third of the host bundle's size, and a
 * session with no server never needs it.
 */
export function loadConnect(): Promise<Connect> {
  return (loaded ??= import('./sdk/index').then((m) => m.connect));
}
