import type { Host } from '../ports/host';
import type { CliIo } from './io';

export interface CliHostOptions {
  env: NodeJS.ProcessEnv;
  io: CliIo;
  /** Whether the run may act on the folder's own files and settings (see cliTrusted). */
  trusted: boolean;
  /** --max-turns; without it a headless run finishes long work, as the reference's -p does. */
  maxTurns?: number;
}

/**
 * The CLI as the core's host: the key and base URL from the environment, settings from the
 * flags, notices on stderr, and nothing it could ask, since nobody is there to answer.
 */
export function cliHost(o: CliHostOptions): Host {
  return {
    isTrusted: () => o.trusted,
    apiKey: async () => o.env.ANTHROPIC_API_KEY || undefined,
    baseUrl: () => o.env.ANTHROPIC_BASE_URL || '',
    settings: {
      maxTurns: () => o.maxTurns ?? Infinity,
      // Choices are made with flags, per run: there is no settings file to keep them in.
      save: async () => undefined,
    },
    notify: (_level, text) => o.io.err(`threadline: ${text}\n`),
    approveExternal: async (path, from) => {
      o.io.err(`threadline: skipped ${path}, included by ${from}: it is outside the project and a headless run cannot ask (approve it once in VS Code)\n`);
      return false;
    },
  };
}
