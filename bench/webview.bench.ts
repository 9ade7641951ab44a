// The chat panel in Chromium: the production webview bundle fed by the real host path (store,
// actions, ViewSync snapshot and patches), streaming the same answer into 0, 1,000 and 5,000
// messages of history; resuming 5,000 messages; and the main-thread cost of a 12 KB answer.
// Each figure is printed beside the target the issues set (16 and 17).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../scripts/chromiumFlags.mjs';
import { STREAM_ANSWER, makeHistory, makeLongAnswer, tokenize } from './webview/fixtures';
import { recordHostScript, recordSnapshot } from './webview/hostScript';
import { buildAssets, openBenchPage, type PageAssets } from './webview/page';
import { median } from './stats';

const SIZES = [0, 1000, 5000] as const;
/** One delta every 8 ms (~125 deltas/s): faster than the API streams, so lag shows. */
const STREAM_INTERVAL_MS = 8;
/** The 12 KB answer is posted as fast as the page takes it: the figure is main-thread work. */
const LONG_INTERVAL_MS = 1;


export function chromiumPath(): string {
  return process.env.THREADLINE_CHROMIUM ?? '/usr/bin/chromium';
}

async function streamRun(browser: Browser, assets: PageAssets, size: number) {
  const history = makeHistory(size);
  const script = await recordHostScript(history, tokenize(STREAM_ANSWER));
  const page = await openBenchPage(browser, assets);
  try {
    await page.boot(script.snapshot, history.at(-1)?.id);
    const cpu0 = await page.mainThreadMs();
    const r = await page.stream(script.patches, STREAM_INTERVAL_MS, 'the new figures are in the README table.', script.answerId);
    const cpu = (await page.mainThreadMs()) - cpu0;
    if (!r.textOk) throw new Error(`at ${size} messages the streamed answer did not end with the text sent`);
    if (r.resyncs) throw new Error(`at ${size} messages the webview asked for ${r.resyncs} resyncs: the patches did not apply`);
    return { ...r, mainThreadMs: cpu };
  } finally {
    await page.close();
  }
}

export async function benchWebview(root: string): Promise<Record<string, number>> {
  const exe = chromiumPath();
  // Without a browser the panel cannot be measured: that fails the run, it is not a pass.
  if (!existsSync(exe)) throw new Error(`cannot measure the chat panel: no Chromium at ${exe} (apt-get install chromium, or set THREADLINE_CHROMIUM)`);
  const assets = await buildAssets(root);
  if (typeof assets === 'string') throw new Error(`cannot measure the chat panel: ${assets}`);
  const rounds = Math.max(1, Number(process.env.THREADLINE_BENCH_ROUNDS ?? 2));
  const browser = await chromium.launch({ executablePath: exe, args: [...CHROMIUM_FLAGS], headless: true });
  const out: Record<string, number> = {};
  try {
    const runs = new Map<number, Awaited<ReturnType<typeof streamRun>>[]>();
    // Interleaved rounds, so a burst of load on the machine hits every size alike.
    for (let round = 0; round < rounds; round++) {
      for (const size of SIZES) runs.set(size, [...(runs.get(size) ?? []), await streamRun(browser, assets, size)]);
    }
    const pick = (size: number, f: (r: Awaited<ReturnType<typeof streamRun>>) => number) => Math.round(median(runs.get(size)!.map(f)));
    const base = pick(0, (r) => r.totalMs);
    for (const size of SIZES) {
      out[`streamMs@${size}`] = pick(size, (r) => r.totalMs);
      out[`streamRatio@${size}`] = +(out[`streamMs@${size}`]! / base).toFixed(2);
      out[`mainThreadMs@${size}`] = pick(size, (r) => r.mainThreadMs);
      out[`frameP95Ms@${size}`] = pick(size, (r) => r.frameP95Ms);
      out[`longTasks@${size}`] = pick(size, (r) => r.longTasks);
      out[`domNodes@${size}`] = pick(size, (r) => r.domNodes);
    }
    out.streamIdealMs = Math.round(runs.get(0)![0]!.idealMs);

    const history = makeHistory(5000);
    const snapshot = await recordSnapshot(history);
    const resumes: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const page = await openBenchPage(browser, assets);
      try {
        const r = await page.boot(snapshot, history.at(-1)!.id);
        resumes.push(r.lastScreenMs);
        out.resumeDomNodes = r.domNodes;
      } finally {
        await page.close();
      }
    }
    out.resumeMs = Math.round(median(resumes));

    const long = makeLongAnswer();
    const longScript = await recordHostScript([], tokenize(long));
    const longCpu: number[] = [];
    const longWall: number[] = [];
    const tail = long.trim().split('\n').filter((l) => l.trim() && !l.startsWith('```')).at(-1)!.trim();
    for (let round = 0; round < rounds; round++) {
      const page = await openBenchPage(browser, assets);
      try {
        await page.boot(longScript.snapshot, undefined);
        const cpu0 = await page.mainThreadMs();
        const r = await page.stream(longScript.patches, LONG_INTERVAL_MS, tail, longScript.answerId);
        if (!r.textOk) throw new Error('the 12 KB answer did not end with the text sent');
        longCpu.push((await page.mainThreadMs()) - cpu0);
        longWall.push(r.totalMs);
      } finally {
        await page.close();
      }
    }
    out.longAnswerKB = +(long.length / 1024).toFixed(1);
    out.longAnswerDeltas = longScript.patches.length - 2;
    out.longAnswerMainThreadMs = Math.round(median(longCpu));
    out.longAnswerWallMs = Math.round(median(longWall));
  } finally {
    await browser.close();
  }

  return out;
}
