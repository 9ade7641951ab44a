import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../../src/cli/cli';
import { claudeProjectDir } from '../../../src/sessions/claudeCode';
import { placeFixture, workspace } from '../../support/claudeFixtures';
import { ClaudeTranscriptWriter } from '../../support/claudeTranscript';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

function runner(home: string) {
  const stateDir = mkdtempSync(join(tmpdir(), 'tl-state-'));
  return async (argv: string[], cwd: string) => {
    let out = '';
    let err = '';
    const code = await runCli(argv, {
      io: { out: (t) => (out += t), err: (t) => (err += t) },
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0', HOME: home },
      cwd,
    });
    return { code, out, err };
  };
}

const sentText = (i = -1) => JSON.stringify((standin.requests.at(i)!.body as { messages: unknown }).messages);

describe('threadline and Claude Code sessions of one folder', () => {
  it('sessions --all lists both, marked, newest first; without --all the output is as before (plus source in JSON)', async () => {
    const where = workspace();
    const cli = runner(where.home);
    standin.enqueue({ content: [{ type: 'text', text: 'Noted.' }] });
    const own = JSON.parse((await cli(['-p', 'Remember heron', '--output-format', 'json'], where.cwd)).out) as { session_id: string };
    const cc = placeFixture('rewind', where);

    const plain = await cli(['sessions'], where.cwd);
    assert.match(plain.out, new RegExp(`^${own.session_id}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d +2 msgs  Remember heron\\n$`));
    const plainJson = JSON.parse((await cli(['sessions', '--json'], where.cwd)).out) as Array<Record<string, unknown>>;
    assert.deepEqual(plainJson.map((s) => [s.id, s.source, s.messageCount]), [[own.session_id, 'threadline', 2]]);

    const all = await cli(['sessions', '--all'], where.cwd);
    const rows = all.out.trim().split('\n');
    assert.equal(rows.length, 2);
    // The Claude Code file was written after the Threadline session: it comes first.
    assert.match(rows[0]!, new RegExp(`^claude-code  ${cc.sessionId}  .* +- msgs  Pick a number between one and ten\\.$`));
    assert.match(rows[1]!, new RegExp(`^threadline   ${own.session_id}  `));
    const json = JSON.parse((await cli(['sessions', '--all', '--json'], where.cwd)).out) as Array<Record<string, unknown>>;
    assert.deepEqual(json.map((s) => [s.source, s.id]), [['claude-code', cc.sessionId], ['threadline', own.session_id]]);
    assert.equal(json[0]!.file, cc.file);
  });

  it('--resume takes a Claude Code id: imported as a new Threadline session, the transcript untouched, said on stderr; that session resumes by its own id', async () => {
    const where = workspace();
    const cli = runner(where.home);
    const cc = placeFixture('compact-manual', where);
    const before = readFileSync(cc.file);
    standin.enqueue({ content: [{ type: 'text', text: 'The parser comes second.' }] });
    const r = await cli(['-p', 'And the second task?', '--resume', cc.sessionId, '--output-format', 'json'], where.cwd);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(readFileSync(cc.file), before);
    const result = JSON.parse(r.out) as { session_id: string; result: string };
    assert.notEqual(result.session_id, cc.sessionId);
    assert.match(r.err, /^threadline: Imported the Claude Code session "What does notes\.md say\?" as a new Threadline session; its transcript is unchanged\. It starts from the summary of its last compaction/);
    assert.match(r.err, new RegExp(`Its Threadline id is ${result.session_id}\\.`));
    assert.equal(standin.requests.length, 1);
    assert.equal(standin.requests[0]!.validationError, null);
    const sent = sentText();
    assert.match(sent, /This session is being continued/);
    assert.match(sent, /Writing the tests comes first\./);
    assert.doesNotMatch(sent, /What does notes\.md say/, 'nothing from before the compaction');

    const list = JSON.parse((await cli(['sessions', '--json'], where.cwd)).out) as Array<{ id: string; title: string }>;
    assert.deepEqual(list.map((s) => [s.id, s.title]), [[result.session_id, 'What does notes.md say?']]);
    standin.enqueue({ content: [{ type: 'text', text: 'README last.' }] });
    assert.equal((await cli(['-p', 'And the last?', '--resume', result.session_id], where.cwd)).code, 0);
    assert.match(sentText(), /The parser comes second\./);
  });

  it('--continue stays with Threadline\'s own sessions', async () => {
    const where = workspace();
    placeFixture('plain', where);
    const r = await runner(where.home)(['-p', 'go on', '--continue'], where.cwd);
    assert.equal(r.code, 1);
    assert.equal(r.err, 'threadline: there is no earlier session in this folder to continue\n');
  });

  it('an unknown id names both kinds; a Claude Code session too big for the window is compacted before the first request', async () => {
    const where = workspace();
    const cli = runner(where.home);
    const missing = await cli(['-p', 'x', '--resume', 'f00dfeed-0000-4000-8000-000000000000'], where.cwd);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /no Threadline or Claude Code session of this folder has that id/);

    // Tool results are cleared first (micro-compaction); long answers need a summary.
    const dir = claudeProjectDir(where.cwd, { HOME: where.home });
    mkdirSync(dir, { recursive: true });
    const reads = new ClaudeTranscriptWriter('big-reads', where.cwd);
    const talk = new ClaudeTranscriptWriter('big-talk', where.cwd);
    for (let i = 0; i < 12; i++) {
      reads.prompt(`Read part ${i}`);
      const calls = reads.answer([{ type: 'tool_use', name: 'Read', input: { file_path: `part${i}.txt` } }]);
      reads.results(calls, [Array.from({ length: 300 }, (_, k) => `line ${k} of part ${i}, long enough to count`).join('\n')]);
      reads.answer([{ type: 'text', text: `Part ${i} read.` }]);
      talk.prompt(`Explain chapter ${i}`);
      talk.answer([{ type: 'text', text: Array.from({ length: 300 }, (_, k) => `Chapter ${i}, point ${k}: it matters.`).join(' ') }]);
    }
    writeFileSync(join(dir, 'big-reads.jsonl'), reads.finish());
    writeFileSync(join(dir, 'big-talk.jsonl'), talk.finish());

    for (const id of ['big-reads', 'big-talk']) {
      standin.reset();
      // Clearing old results is enough for the reads; only the long answers take a summary.
      if (id === 'big-talk') standin.enqueue({ when: 'summary', content: [{ type: 'text', text: '<summary>Twelve parts were covered.</summary>' }] });
      standin.enqueue({ content: [{ type: 'text', text: 'Done.' }] });
      // Auto-compaction at 27k: thresholds scale with windows below 200k.
      const r = await cli(['-p', 'Which one was last?', '--resume', id, '--context-window', '32336'], where.cwd);
      assert.equal(r.code, 0, r.err);
      const estimate = Number(/At about (\d+)k tokens it does not fit the context window and needs compacting before the next request/.exec(r.err)?.[1]) * 1000;
      assert.ok(estimate > 30_000, r.err);
      assert.ok(standin.requests.every((q) => q.validationError === null));
      const last = standin.requests.at(-1)!;
      const u = last.usage!;
      if (id === 'big-reads') assert.match(sentText(), /Which one was last\?/);
      assert.ok(u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens < estimate / 2, `${id}: the first main request was made smaller (${JSON.stringify(u)})`);
      assert.equal(standin.requests.length, id === 'big-talk' ? 2 : 1, id === 'big-talk' ? 'long answers take a summary request first' : 'reads are cleared without a summary');
    }
  });

  it(
    'keeps the prompt being sent when a compaction runs before its request',
    async () => {
      const where = workspace();
      const talk = new ClaudeTranscriptWriter('big-talk', where.cwd);
      for (let i = 0; i < 12; i++) {
        talk.prompt(`Explain chapter ${i}`);
        talk.answer([{ type: 'text', text: Array.from({ length: 300 }, (_, k) => `Chapter ${i}, point ${k}: it matters.`).join(' ') }]);
      }
      const dir = claudeProjectDir(where.cwd, { HOME: where.home });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'big-talk.jsonl'), talk.finish());
      standin.enqueue({ when: 'summary', content: [{ type: 'text', text: '<summary>Twelve chapters were explained.</summary>' }] }, { content: [{ type: 'text', text: 'Done.' }] });
      const r = await runner(where.home)(['-p', 'Which chapter was last?', '--resume', 'big-talk', '--context-window', '36000'], where.cwd);
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, /needs compacting before the next request/, 'the imported session is over the window: it compacts first');
      assert.equal(standin.requests.length, 2, 'the summary, then the prompt');
      assert.match(sentText(), /Which chapter was last\?/);
    },
  );
});
