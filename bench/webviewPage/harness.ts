// Runs inside Chromium, in the page that hosts the built webview bundle. It stands in for the
// extension host: `acquireVsCodeApi()` answers `view/ready` with the snapshot the real ViewSync
// produced, and a worker thread posts the recorded patches at a fixed pace, the way the host's
// messages arrive while the model streams — independent of how busy the page's main thread is.

import type { BootResult, StreamResult } from '../webview/pageTypes';

interface HostMessage {
  type: string;
  payload: unknown;
}

let snapshot: HostMessage | undefined;
let resyncs = 0;
const fromWebview: HostMessage[] = [];
let uiState: unknown;

function deliver(message: HostMessage): void {
  window.dispatchEvent(new MessageEvent('message', { data: message }));
}

(window as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({
  postMessage(message: HostMessage) {
    fromWebview.push(message);
    if (message.type === 'view/resync') resyncs++;
    // The host answers asynchronously, as a real postMessage round trip does.
    if ((message.type === 'view/ready' || message.type === 'view/resync') && snapshot) {
      const s = snapshot;
      setTimeout(() => deliver(s), 0);
    }
  },
  getState: () => uiState,
  setState: (s: unknown) => {
    uiState = s;
  },
});

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame((t) => resolve(t)));
/** Resolves after the frame that follows has been produced (rAF, then a task after paint). */
const afterPaint = () => new Promise<number>((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)));

function visibleInList(id: string): boolean {
  const list = document.querySelector('[data-testid="message-list"]');
  const el = document.querySelector(`[data-testid="message"][data-id="${CSS.escape(id)}"]`);
  if (!list || !el) return false;
  const l = list.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.top < l.bottom && r.bottom > l.top;
}

const WORKER = `
let timer;
onmessage = (e) => {
  const { messages, intervalMs } = e.data;
  const start = performance.now();
  let i = 0;
  const tick = () => {
    while (i < messages.length && performance.now() >= start + i * intervalMs) postMessage(messages[i++]);
    if (i < messages.length) timer = setTimeout(tick, Math.max(0, start + i * intervalMs - performance.now()));
  };
  tick();
};`;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0;
}

const bench = {
  /** Loads the bundle; resolves once the last message of the snapshot is on screen and painted. */
  async boot(initial: HostMessage, lastId: string | undefined, bundleUrl: string): Promise<BootResult> {
    snapshot = initial;
    const t0 = performance.now();
    const script = document.createElement('script');
    script.src = bundleUrl;
    document.body.appendChild(script);
    for (;;) {
      await nextFrame();
      const ready = lastId ? visibleInList(lastId) : document.querySelector('[data-testid="app"]') !== null;
      if (ready) break;
      if (performance.now() - t0 > 120_000) throw new Error(`the last message ${lastId} never showed`);
    }
    const painted = await afterPaint();
    return { lastScreenMs: painted - t0, domNodes: document.getElementsByTagName('*').length };
  },

  /** Streams the recorded patches at `intervalMs` each and measures how the page keeps up. */
  async stream(patches: HostMessage[], intervalMs: number, expectText: string, answerId: string): Promise<StreamResult> {
    // The stream patches carry sequence numbers after the snapshot's; a resync would mean the
    // page drew something else, and the figures would be void.
    const before = resyncs;
    const frameTimes: number[] = [];
    let long = 0;
    let longMs = 0;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        long++;
        longMs += e.duration;
      }
    });
    observer.observe({ type: 'longtask', buffered: false });
    const worker = new Worker(URL.createObjectURL(new Blob([WORKER], { type: 'text/javascript' })));
    let received = 0;
    let running = true;
    const frames = (async () => {
      let last = await nextFrame();
      while (running) {
        const t = await nextFrame();
        frameTimes.push(t - last);
        last = t;
      }
    })();
    const start = performance.now();
    const done = new Promise<void>((resolve) => {
      worker.onmessage = (e: MessageEvent<HostMessage>) => {
        deliver(e.data);
        if (++received === patches.length) resolve();
      };
    });
    worker.postMessage({ messages: patches, intervalMs });
    await done;
    const end = await afterPaint();
    running = false;
    await frames;
    worker.terminate();
    observer.disconnect();
    const answer = document.querySelector(`[data-testid="message"][data-id="${CSS.escape(answerId)}"]`);
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
    return {
      totalMs: end - start,
      idealMs: (patches.length - 1) * intervalMs,
      frames: frameTimes.length,
      frameP95Ms: percentile(frameTimes, 0.95),
      longTasks: long,
      longTaskMs: longMs,
      domNodes: document.getElementsByTagName('*').length,
      textOk: answer !== null && norm(answer.textContent ?? '').includes(norm(expectText)),
      resyncs: resyncs - before,
    };
  },

  messagesFromWebview: () => fromWebview.map((m) => m.type),
};

(window as unknown as { __bench: typeof bench }).__bench = bench;
