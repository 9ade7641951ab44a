import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../../src/cli/cli';
import { useStandin } from '../../support/useStandin';

const standin = useStandin({ reset: false });

describe('a small context window (threadline -p --context-window 32768)', () => {
  it('sends the first prompt as written and answers it, without a summary request', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-small-'));
    standin.enqueue({ content: [{ type: 'text', text: 'Hello!' }] });
    let out = '';
    let err = '';
    const code = await runCli(['-p', 'hi there', '--context-window', '32768', '--model', 'claude-sonnet-4-6'], {
      io: { out: (t) => (out += t), err: (t) => (err += t) },
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: mkdtempSync(join(tmpdir(), 'tl-state-')), THREADLINE_AUTO_MEMORY: '0' },
      cwd,
    });
    assert.equal(code, 0, err);
    assert.equal(out, 'Hello!\n');
    assert.equal(standin.requests.length, 1, 'one request: the prompt itself');
    assert.match(JSON.stringify((standin.requests[0]!.body as { messages: unknown[] }).messages), /hi there/);
  });
});
