import * as esbuild from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import type { HostToWebviewMessage } from '../../src/shared/protocol';
import type { BootResult, StreamResult } from './pageTypes';

// The page the benchmark drives: the production webview bundle (dist/webview) served from a fake
// origin, with the harness in place of the extension host and a Dark Modern-like set of theme
// variables so layout and paint cost what they cost inside VS Code.

const ORIGIN = 'http://bench.invalid';

const THEME = `
:root {
  --vscode-font-family: system-ui, -apple-system, "Segoe UI", "Ubuntu", sans-serif;
  --vscode-font-size: 13px;
  --vscode-editor-font-family: "Droid Sans Mono", monospace;
  --vscode-editor-font-size: 14px;
  --vscode-foreground: #cccccc;
  --vscode-sideBar-background: #181818;
  --vscode-editor-background: #1f1f1f;
  --vscode-textCodeBlock-background: #2b2b2b;
  --vscode-textPreformat-foreground: #d0d0d0;
  --vscode-textPreformat-background: #3c3c3c;
  --vscode-textBlockQuote-background: #2b2b2b;
  --vscode-textBlockQuote-border: #616161;
  --vscode-textLink-foreground: #4daafc;
  --vscode-button-background: #0078d4;
  --vscode-button-foreground: #ffffff;
  --vscode-input-background: #313131;
  --vscode-input-foreground: #cccccc;
  --vscode-focusBorder: #0078d4;
  --vscode-widget-border: #313131;
  --vscode-panel-border: #2b2b2b;
  --vscode-descriptionForeground: #9d9d9d;
  --vscode-errorForeground: #f85149;
}`;

const HTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<link rel="stylesheet" href="${ORIGIN}/codicon.css">
<link rel="stylesheet" href="${ORIGIN}/main.css">
<style>${THEME}</style>
<script src="${ORIGIN}/harness.js"></script>
</head><body><div id="root"></div></body></html>`;

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.html': 'text/html' };

export interface PageAssets {
  webviewDir: string;
  harness: string;
}

export async function buildAssets(root: string): Promise<PageAssets | string> {
  const webviewDir = join(root, 'dist', 'webview');
  if (!existsSync(join(webviewDir, 'main.js'))) return `no webview bundle at ${webviewDir} (run npm run build)`;
  const out = await esbuild.build({
    entryPoints: [join(root, 'bench', 'webviewPage', 'harness.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    logLevel: 'warning',
  });
  return { webviewDir, harness: out.outputFiles[0]!.text };
}

/** What bench/webviewPage/harness.ts puts on the page's window. */
interface HarnessGlobal {
  __bench: {
    boot(snapshot: unknown, lastId: string | undefined, bundleUrl: string): Promise<BootResult>;
    stream(patches: unknown, intervalMs: number, expectText: string, answerId: string): Promise<StreamResult>;
  };
}

export interface BenchPage {
  page: Page;
  boot(snapshot: HostToWebviewMessage, lastId: string | undefined): Promise<BootResult>;
  stream(patches: HostToWebviewMessage[], intervalMs: number, expectText: string, answerId: string): Promise<StreamResult>;
  /**
   * CPU time of the page's main thread so far (Chromium's ThreadTime), in milliseconds. CPU time,
   * not the wall time of its tasks: on a shared machine a task preempted by other processes would
   * otherwise count the time it waited.
   */
  mainThreadMs(): Promise<number>;
  close(): Promise<void>;
}

export async function openBenchPage(browser: Browser, assets: PageAssets, viewport = { width: 400, height: 800 }): Promise<BenchPage> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.route(`${ORIGIN}/**`, async (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    if (name === '' || name === 'index.html') return route.fulfill({ contentType: TYPES['.html'], body: HTML });
    if (name === 'harness.js') return route.fulfill({ contentType: TYPES['.js'], body: assets.harness });
    const file = join(assets.webviewDir, name);
    if (!/^[\w.-]+$/.test(name) || !existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ contentType: TYPES[extname(name)] ?? 'application/octet-stream', body: readFileSync(file) });
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${ORIGIN}/index.html`);
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const fail = () => {
    if (errors.length) throw new Error(`the webview threw: ${errors.join('; ')}`);
  };
  return {
    page,
    async boot(snapshot, lastId) {
      const r = await page.evaluate(([s, id, url]) => (globalThis as unknown as HarnessGlobal).__bench.boot(s, id, url), [snapshot, lastId, `${ORIGIN}/main.js`] as const);
      fail();
      return r;
    },
    async stream(patches, intervalMs, expectText, answerId) {
      const r = await page.evaluate(
        ([p, i, t, a]) => (globalThis as unknown as HarnessGlobal).__bench.stream(p, i, t, a),
        [patches, intervalMs, expectText, answerId] as const,
      );
      fail();
      return r;
    },
    async mainThreadMs() {
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      const thread = metrics.find((m) => m.name === 'ThreadTime');
      if (!thread) throw new Error('Chromium reported no ThreadTime metric');
      return thread.value * 1000;
    },
    async close() {
      await context.close();
    },
  };
}
