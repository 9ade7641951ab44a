export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export function consoleLogger(prefix = 'threadline'): Logger {
  return {
    info: (m) => console.error(`[${prefix}] ${m}`),
    warn: (m) => console.error(`[${prefix}] warn: ${m}`),
    error: (m, err) => console.error(`[${prefix}] error: ${m}${err ? `: ${err instanceof Error ? err.message : String(err)}` : ''}`),
  };
}
