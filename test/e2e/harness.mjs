// Starts real VS Code (code-server) with the packaged Threadline installed, on a throwaway git
// workspace, and drives it with Debian's Chromium through playwright-core. Every wait is on
// something the page shows; nothing sleeps.
// Functions passed to evaluate() run in the page, where document is defined.
/* global document, window */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../scripts/chromiumFlags.mjs';
import { ROOT } from '../../scripts/codeServer.mjs';

export { BASE_SETTINGS, ROOT, VSIX, freePort, makeSampleWorkspace, startCodeServer } from '../../scripts/codeServer.mjs';
export const RESULTS = join(ROOT, 'test-results');

export { CHROMIUM_FLAGS };

export async function launchBrowser(tools) {
  return chromium.launch({ executablePath: tools.chromium, args: CHROMIUM_FLAGS, headless: true });
}

/** Opens the workbench, waits for it, and returns helpers bound to the page. */
export async function openWorkbench(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  return { context, page, ...workbenchHelpers(page) };
}

export function workbenchHelpers(page) {
  const chatFrame = () => page.frameLocator('iframe.webview').first().frameLocator('iframe#active-frame');
  const threadlineIcon = () => page.locator('.activitybar a[aria-label^="Threadline"]');
  /**
   * Makes sure the panel shows, whatever the workbench restores. After a reload the sidebar may
   * bring the panel back by itself a moment after its icon appears: a click in that moment hides
   * it again (CI, at load 14). So: look, click only if the icon is not checked, wait a while, and
   * look again.
   */
  async function showThreadline({ timeout = 120_000 } = {}) {
    const app = chatFrame().locator('[data-testid="app"]');
    const item = page.locator('.activitybar .action-item', { has: page.locator('a[aria-label^="Threadline"]') });
    await item.waitFor({ timeout });
    const deadline = Date.now() + timeout;
    for (;;) {
      // Checked is not shown: after a reload the item can say checked while the sidebar came back hidden.
      const shown = /\bchecked\b/.test((await item.getAttribute('class')) ?? '') && (await page.locator('.part.sidebar').isVisible());
      if (!shown) await threadlineIcon().click();
      try {
        await app.waitFor({ timeout: 15_000 });
        return;
      } catch (err) {
        if (Date.now() > deadline) {
          mkdirSync(RESULTS, { recursive: true });
          await page.screenshot({ path: join(RESULTS, 'failed-show-threadline.png') });
          throw err;
        }
      }
    }
  }
  /**
   * F1, as a user opens the command palette. When it does not show, the error says where the
   * focus was and a screenshot shows the page (that is how the Settings editor's modal, which
   * takes the keyboard, was found).
   */
  async function openPalette() {
    const input = page.locator('.quick-input-widget input');
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ timeout: 30_000 });
      return input;
    } catch (err) {
      const focused = await page.evaluate(() => {
        const el = document.activeElement;
        return el ? `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 160) : 'nothing';
      });
      mkdirSync(RESULTS, { recursive: true });
      await page.screenshot({ path: join(RESULTS, 'failed-palette.png') });
      throw new Error(`the command palette did not show after F1; focus is on ${focused}`, { cause: err });
    }
  }
  return {
    chatFrame,
    threadlineIcon,
    async openThreadline() {
      await threadlineIcon().click();
      await chatFrame().locator('[data-testid="app"]').waitFor({ timeout: 60_000 });
    },
    showThreadline,
    openPalette,
    /** New Session from the sidebar's title bar, as a person clicks it; resolves once the empty state shows. */
    async newSession() {
      await page.locator('.part.sidebar .title-actions [aria-label^="New Session"]').click();
      await chatFrame().locator('[data-testid="empty-state"]').waitFor();
    },
    /** Drags the sidebar's sash until the panel is about `px` wide, as a person resizes it; returns the width reached. */
    async panelWidth(px) {
      const sidebar = page.locator('.part.sidebar');
      const width = () => chatFrame().locator('body').evaluate(() => window.innerWidth);
      for (let i = 0; i < 3; i++) {
        const box = await sidebar.boundingBox();
        const now = await width();
        if (Math.abs(now - px) <= 8) return now;
        // VS Code's sash sits on the sidebar's right edge.
        const x = box.x + box.width;
        await page.mouse.move(x, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(x + (px - now), box.y + box.height / 2, { steps: 6 });
        await page.mouse.up();
        await new Promise((r) => setTimeout(r, 300));
      }
      return width();
    },
    /** Types a prompt into the panel's composer and sends it, as a user does. */
    async send(text) {
      const input = chatFrame().locator('[data-testid="prompt-input"]');
      // A test that failed half-way may have left the panel hidden.
      if (!(await input.isVisible().catch(() => false))) await showThreadline();
      if (text.length > 50_000) {
        // A long paste: typing it through fill() takes longer than its timeout; set the value the
        // way a paste does (React listens to the input event) and send.
        await input.evaluate((el, value) => {
          // These run in the page: its own textarea prototype and Event class.
          Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value').set.call(el, value);
          el.dispatchEvent(new el.ownerDocument.defaultView.Event('input', { bubbles: true }));
        }, text);
      } else {
        await input.fill(text);
      }
      await input.press('Enter');
    },
    async runCommand(title) {
      const input = await openPalette();
      await input.fill(`>${title}`);
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
      await row.waitFor();
      await page.keyboard.press('Enter');
    },
    statusItem: () => page.locator('.statusbar-item#threadline\\.threadline\\.context, .statusbar-item[id$="threadline.context"]').first(),
    toasts: () => page.locator('.notifications-toasts .notification-toast'),
    async screenshot(name) {
      mkdirSync(RESULTS, { recursive: true });
      await page.screenshot({ path: join(RESULTS, `${name}.png`) });
    },
  };
}

export function cleanup(dir) {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // a leftover temp dir is not a test failure
  }
}

/**
 * Polls `read` until `check` accepts its value, and returns that value; on timeout, fails with
 * the last value seen. For facts the page settles into (counts, texts) rather than elements.
 */
export async function eventually(read, check, { timeout = 30_000, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await read();
      if (check(last)) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * startEnvironment, then the workbench with the Threadline panel open: what most suites need
 * before their first test. Returns the environment, the workbench helpers and the chat frame.
 */
export async function openPanel(options) {
  const env = await startEnvironment(options);
  const wb = await openWorkbench(env.browser, env.server.url);
  await wb.openThreadline();
  return { env, standin: env.standin, wb, frame: wb.chatFrame() };
}

/**
 * The usual end-to-end setup: the Messages API stand-in, a sample git workspace, code-server
 * pointed at the stand-in with a key, and a browser. `close()` undoes all of it.
 */
export async function startEnvironment({ settings = {}, env = {} } = {}) {
  const { startStandinProcess } = await import('./standinProcess.mjs');
  const { mkdtempSync, realpathSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { makeSampleWorkspace, startCodeServer } = await import('../../scripts/codeServer.mjs');
  const standin = await startStandinProcess();
  const workspace = realpathSync(makeSampleWorkspace(mkdtempSync(join(tmpdir(), 'threadline-ws-'))));
  const e = {
    standin,
    workspace,
    settings: { 'threadline.apiBaseUrl': standin.url, ...settings },
    env: { ANTHROPIC_API_KEY: 'sk-ant-standin-test', ...env },
    server: undefined,
    browser: undefined,
  };
  e.server = await startCodeServer({ workspace, settings: e.settings, env: e.env });
  e.browser = await launchBrowser(e.server.tools);
  e.close = async () => {
    await e.browser?.close();
    await e.server?.stop();
    await standin.stop();
    if (e.server) cleanup(e.server.dirs.base);
    cleanup(workspace);
  };
  return e;
}

/** Every process below `root` (children, grandchildren…), read from /proc. */
function descendants(root) {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name sits in parentheses and may hold spaces: the fields after it are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const walk = (pid) => {
    for (const [child, ppid] of parent) {
      if (ppid === pid) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return out;
}

const alive = (pid) => {
  try {
    // A zombie has exited: its state letter is Z.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/**
 * Kills the editor as a crash or a power cut does: SIGKILL to code-server and every process
 * below it (the server, the extension host, its children) at once, so nothing gets to run a
 * deactivate or flush a buffer. Resolves once all of them are gone.
 */
export async function crashCodeServer(server) {
  const pids = [server.pid, ...descendants(server.pid)];
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  await eventually(() => pids.filter(alive), (left) => left.length === 0, { timeout: 30_000, what: 'the killed editor processes to be gone' });
  return pids.length;
}

/** The same editor again, on the same folder, profile and extensions, as a user restarts it. */
export async function restartCodeServer(env) {
  const { startCodeServer } = await import('../../scripts/codeServer.mjs');
  env.server = await startCodeServer({ workspace: env.workspace, settings: env.settings, env: env.env, dirs: { ...env.server.dirs, install: false } });
  return env.server;
}
