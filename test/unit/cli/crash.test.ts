import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { runCli } from '../../../src/cli/cli';
import { cliSessionsDir } from '../../../src/sessions/paths';
import { loadSession } from '../../../src/sessions/sessionStore';
import { cliBundle } from '../../support/cliBundle';
import { killRuns, scriptedTurn, type KillFigures } from '../../support/killRuns';
import { useStandin } from '../../support/useStandin';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

describe('a turn that survives a crash', () => {
  const standin = useStandin({ reset: false });

  it('each message is on disk as soon as it is complete, not at the end of the turn', async () => {
    const cwd = tmp('tl-permsg-');
    const stateDir = tmp('tl-state-');
    const dir = cliSessionsDir(cwd, { THREADLINE_STATE_DIR: stateDir });
    const saved = async (): Promise<MessageParam[]> => {
      const file = existsSync(dir) ? readdirSync(dir).find((n) => n.endsWith('.jsonl')) : undefined;
      // Read mid-write, the file can still be empty.
      return file ? ((await loadSession(join(dir, file)).catch(() => undefined))?.history ?? []) : [];
    };
    standin.enqueue({ content: [{ type: 'tool_use', id: 'toolu_slow', name: 'Bash', input: { command: 'sleep 1; echo slept' } }] }, { content: [{ type: 'text', text: 'Done.' }] });
    let done = false;
    const running = runCli(['-p', 'take your time', '--allowed-tools', 'Bash', '--cwd', cwd], {
      io: { out: () => undefined, err: () => undefined },
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0' },
    }).finally(() => (done = true));
    // What a crash at each moment would leave: the model's tool call must be on disk before its
    // tool has finished (before the second request goes out).
    let mid: MessageParam[] = [];
    while (!done && mid.length < 2) {
      mid = await saved();
      if (mid.length < 2) await new Promise((r) => setTimeout(r, 10));
    }
    const requestsThen = standin.requests.length;
    assert.equal(await running, 0);
    assert.equal(requestsThen, 1, 'the tool call was saved while its tool still ran');
    assert.match(JSON.stringify(mid[0]), /take your time/);
    assert.match(JSON.stringify(mid[1]), /toolu_slow/);
    assert.equal((await saved()).length, 4);
  });

  it('kill -9 at random points of a 12-step turn: every completed message reloads and the session resumes', async () => {
    const cli = await cliBundle();
    const runs = Number(process.env.THREADLINE_KILL_RUNS ?? 100);
    const figures: KillFigures = await killRuns({ cli, runs, concurrency: 4, turn: scriptedTurn(12), cliResumeEvery: 20 });
    process.stdout.write(`# kill -9: ${figures.runs} kills (${figures.byStep.join('/')} per step 0-12), ${figures.lostMessages} completed messages lost of ${figures.completedMessages}, ${figures.resumed}/${figures.runs} resumed (${figures.resumedByCli}/${figures.cliResumes} by a real --resume), ${figures.tornLines} torn last lines mended\n`);
    assert.equal(figures.invalidRequests, 0, 'every request the stand-in saw was valid');
    assert.equal(figures.deniedCalls, 0, 'every scripted tool call ran');
    assert.equal(figures.lostMessages, 0, figures.failures.join('\n'));
    assert.equal(figures.resumed, figures.runs, figures.failures.join('\n'));
    assert.equal(figures.resumedByCli, figures.cliResumes, figures.failures.join('\n'));
  });
});
