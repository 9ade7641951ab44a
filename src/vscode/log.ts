import * as vscode from 'vscode';
import type { Logger } from '../ports/logger';

export function createOutputLogger(): Logger & vscode.Disposable {
  const channel = vscode.window.createOutputChannel('Threadline', { log: true });
  return {
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m, err) => channel.error(err instanceof Error ? `${m}: ${err.message}` : err ? `${m}: ${String(err)}` : m),
    dispose: () => channel.dispose(),
  };
}
