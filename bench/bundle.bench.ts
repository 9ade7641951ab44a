import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export function benchBundles(root: string): Record<string, number> {
  const kb = (n: number) => Math.round(n / 102.4) / 10;
  const file = (rel: string) => join(root, rel);
  const webview = readFileSync(file('dist/webview/main.js'));
  const css = readFileSync(file('dist/webview/main.css'));
  return {
    hostBundleKB: kb(statSync(file('dist/extension.js')).size),
    cliBundleKB: kb(statSync(file('dist/cli.js')).size),
    // The MCP SDK and connection layer, loaded by either bundle only when a server is configured.
    mcpBundleKB: kb(statSync(file('dist/mcp.js')).size),
    webviewJsKB: kb(webview.length),
    webviewGzipKB: kb(gzipSync(webview).length + gzipSync(css).length),
  };
}
