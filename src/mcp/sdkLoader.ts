import type { Connect } from './connection';
import { re2Pattern } from './patterns';

let loaded: Promise<Connect> | undefined;

/**
 * The connection layer, loaded on first use. The build makes `./sdk/index` a bundle of its own
 * (dist/mcp.js, see scripts/build.mjs): the SDK is a third of the host bundle's size, and a
 * session with no server never needs it.
 */
export function loadConnect(): Promise<Connect> {
  // The host's RE2 goes with every connection: the bundle has no regular-expression engine of its own for server schemas.
  return (loaded ??= import('./sdk/index').then((m) => (opts) => m.connect({ patternEngine: re2Pattern, ...opts })));
}
