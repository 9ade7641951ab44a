// proper-lockfile requires graceful-fs as the default for its `fs` option; src/fs/lock.ts always
// passes its own, so the bundles take plain node:fs here instead of 11 KB that never runs.
export * from 'node:fs';
export { default } from 'node:fs';
