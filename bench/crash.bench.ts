import { join } from 'node:path';
import { killRuns, scriptedTurn } from '../test/support/killRuns';

/**
 * kill -9 of the real CLI (dist/cli.js) at random points of a 12-step scripted turn, then a
 * reload: how many completed messages are lost (target 0) and how many sessions resume
 * (target all). The unit test runs 100 kills; this runs THREADLINE_BENCH_KILLS (default 300).
 */
export async function benchCrash(root: string): Promise<Record<string, number>> {
  const runs = Number(process.env.THREADLINE_BENCH_KILLS ?? 300);
  const f = await killRuns({ cli: join(root, 'dist/cli.js'), runs, concurrency: 4, turn: scriptedTurn(12), cliResumeEvery: 10 });
  if (f.failures.length) process.stderr.write(`crash: ${f.failures.slice(0, 5).join('\n')}\n`);
  return {
    kills: f.runs,
    completedMessages: f.completedMessages,
    lostMessages: f.lostMessages,
    resumed: f.resumed,
    resumedShare: +(f.resumed / f.runs).toFixed(3),
    resumedByCli: f.resumedByCli,
    cliResumes: f.cliResumes,
    nothingSavedYet: f.nothingSaved,
    tornLinesMended: f.tornLines,
    invalidRequests: f.invalidRequests,
    deniedCalls: f.deniedCalls,
    msPerKill: +(f.ms / f.runs).toFixed(0),
  };
}
