import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { claudeProjectDir, findClaudeSession, listClaudeSessions, loadClaudeSession, projectKey } from '../../../src/sessions/claudeCode';
import { ClaudeTranscriptWriter } from '../../support/claudeTranscript';
import { validateRequest } from '../../standin/validate';

// A transcript in the Claude Code CLI's format (one JSON object per line), written by hand.
function transcript(cwd = '/w'): string {
  const base = { sessionId: 's', cwd, version: '2.1.197', userType: 'external' };
  const lines = [
    { type: 'queue-operation', operation: 'enqueue', content: 'Fix the failing test' },
    { ...base, type: 'user', isSidechain: false, uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'Fix the failing test' } },
    { ...base, type: 'attachment', isSidechain: false, uuid: 'x1', parentUuid: 'u1', attachment: { type: 'skill_listing', content: '…' } },
    { ...base, type: 'assistant', isSidechain: false, uuid: 'a1', parentUuid: 'x1', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }] } },
    { ...base, type: 'assistant', isSidechain: false, uuid: 'a2', parentUuid: 'a1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a.test.ts' } }] } },
    { ...base, type: 'user', isSidechain: false, uuid: 'u2', parentUuid: 'a2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1\ttest()', cache_control: { type: 'ephemeral' } }] } },
    { ...base, type: 'assistant', isSidechain: true, uuid: 'side', parentUuid: 'u2', message: { role: 'assistant', content: [{ type: 'text', text: 'sub-agent chatter' }] } },
    'not json {',
    { type: 'brand-new-kind', uuid: 'z' },
    { ...base, type: 'assistant', isSidechain: false, uuid: 'a3', parentUuid: 'u2', message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'Fixed the assertion.' }, { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'npm test' } }] } },
    { type: 'last-prompt', lastPrompt: 'Fix the failing test', sessionId: 's', leafUuid: 'a3' },
  ];
  return lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
}

function tmpFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tl-cc-')), 'session.jsonl');
  writeFileSync(file, text);
  return file;
}

const valid = (history: unknown[]) => validateRequest({ model: 'm', max_tokens: 1, messages: [...history, { role: 'user', content: 'next' }] });
const prompts = (view: Array<{ kind: string; text?: string }>) => view.filter((v) => v.kind === 'user').map((v) => v.text);

describe('Claude Code transcripts', () => {
  it('are found under ~/.claude/projects for the folder, and converted on read into a valid history', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tl-cchome-'));
    const cwd = '/work/my.repo';
    const dir = claudeProjectDir(cwd, { HOME: home });
    assert.equal(dir, join(home, '.claude', 'projects', '-work-my-repo'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '11111111-2222.jsonl'), transcript(cwd));
    writeFileSync(join(dir, 'empty.jsonl'), JSON.stringify({ type: 'queue-operation' }) + '\n');
    // A FIFO or a folder with the right name is not a transcript, and must not hang the listing.
    execFileSync('mkfifo', [join(dir, 'fifo.jsonl')]);
    mkdirSync(join(dir, 'folder.jsonl'));
    const list = await listClaudeSessions(cwd, { HOME: home });
    assert.deepEqual(list.map((s) => [s.id, s.title, s.cwd]), [['11111111-2222', 'Fix the failing test', cwd]]);
    const before = readFileSync(list[0]!.file, 'utf8');
    const s = await loadClaudeSession(list[0]!.file);
    assert.equal(readFileSync(list[0]!.file, 'utf8'), before, 'the transcript is never changed');
    assert.equal(s.skipped, 1);
    assert.equal(s.skips.malformed, 1);
    assert.equal(s.skips.unknownType, 1);
    assert.equal(s.skips.sidechain, 1);
    assert.match(s.notice, /1 from sub-agents, 1 unreadable, 1 of a kind this version does not know/);
    assert.equal(valid(s.history), null);
    const text = JSON.stringify(s.history);
    assert.doesNotMatch(text, /sub-agent chatter/);
    assert.doesNotMatch(text, /cache_control/, 'breakpoints Claude Code wrote are not carried into ours');
    assert.match(text, /Result not recorded/, 'the final unanswered Bash call is answered');
    assert.deepEqual(s.view.map((m) => m.kind), ['user', 'assistant', 'tool', 'assistant', 'tool']);
    assert.equal(s.cwd, cwd);
  });

  it('are looked up by id, only with ids that cannot leave the folder', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tl-cchome-'));
    const cwd = mkdtempSync(join(tmpdir(), 'tl-ccws-'));
    mkdirSync(claudeProjectDir(cwd, { HOME: home }), { recursive: true });
    writeFileSync(join(claudeProjectDir(cwd, { HOME: home }), 'abc-123.jsonl'), transcript(cwd));
    assert.equal((await findClaudeSession(cwd, 'abc-123', { HOME: home }))?.title, 'Fix the failing test');
    assert.equal(await findClaudeSession(cwd, 'nope', { HOME: home }), undefined);
    assert.equal(await findClaudeSession(cwd, '../../../etc/passwd', { HOME: home }), undefined);
  });

  it('of another folder that shares this one\'s key (`a/b-c` and `a/b/c`) are neither listed nor found', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tl-cchome-'));
    const here = '/work/a/b-c';
    const there = '/work/a/b/c';
    assert.equal(claudeProjectDir(here, { HOME: home }), claudeProjectDir(there, { HOME: home }));
    mkdirSync(claudeProjectDir(here, { HOME: home }), { recursive: true });
    writeFileSync(join(claudeProjectDir(here, { HOME: home }), 'mine.jsonl'), transcript(here));
    writeFileSync(join(claudeProjectDir(here, { HOME: home }), 'theirs.jsonl'), transcript(there));
    writeFileSync(join(claudeProjectDir(here, { HOME: home }), 'sub.jsonl'), transcript(`${here}/src`));
    assert.deepEqual((await listClaudeSessions(here, { HOME: home })).map((s) => s.id).sort(), ['mine', 'sub']);
    assert.equal(await findClaudeSession(here, 'theirs', { HOME: home }), undefined);
    assert.deepEqual((await listClaudeSessions(there, { HOME: home })).map((s) => s.id), ['theirs']);
  });

  it('follow Claude Code\'s folder rules: CLAUDE_CONFIG_DIR, the real path of a symlinked folder, long paths capped with a hash', async () => {
    const config = mkdtempSync(join(tmpdir(), 'tl-ccconf-'));
    const real = mkdtempSync(join(tmpdir(), 'tl-ccreal-'));
    const link = join(mkdtempSync(join(tmpdir(), 'tl-cclink-')), 'ws');
    symlinkSync(real, link);
    const dir = join(config, 'projects', projectKey(real));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 's1.jsonl'), transcript(real));
    assert.deepEqual((await listClaudeSessions(link, { CLAUDE_CONFIG_DIR: config, HOME: '/nonexistent' })).map((s) => s.id), ['s1']);
    const long = `/${'deep/'.repeat(50)}repo`;
    const key = projectKey(long);
    assert.equal(key.length, 200 + 1 + Math.abs(javaHash(long)).toString(36).length);
    assert.ok(key.startsWith('-deep-deep-'));
  });
});

function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

describe('which lines make the conversation', () => {
  it('a rewind recorded by the panel (explicit marker, nothing after it) resumes at the rewind point', async () => {
    const w = new ClaudeTranscriptWriter();
    w.prompt('one');
    w.answer([{ type: 'text', text: 'first answer' }]);
    w.prompt('two');
    w.answer([{ type: 'text', text: 'second answer' }]);
    assert.ok(w.rewindTo(1, { explicit: true }));
    const s = await loadClaudeSession(tmpFile(w.finish().replace(/\{"type":"last-prompt","lastPrompt":"two"[^\n]*\n$/, '')));
    assert.deepEqual(prompts(s.view), ['one']);
    assert.equal(s.skips.offChain, 2);
  });

  it('follows a parent lost to a torn line through the line written just before it', async () => {
    const w = new ClaudeTranscriptWriter();
    w.prompt('one');
    w.answer([{ type: 'text', text: 'first answer' }]);
    w.prompt('two');
    w.answer([{ type: 'text', text: 'second answer' }]);
    const lines = w.finish().trim().split('\n');
    const i = lines.findIndex((l) => l.includes('"role":"user","content":"two"'));
    lines[i] = lines[i]!.slice(0, 40);
    const s = await loadClaudeSession(tmpFile(lines.join('\n')));
    assert.equal(s.skips.malformed, 1);
    assert.deepEqual(prompts(s.view), ['one']);
    assert.match(JSON.stringify(s.history), /second answer/);
    assert.equal(valid(s.history), null);
  });

  it('survives a parent cycle, progress lines in the chain, lines written twice and API error notes', async () => {
    const w = new ClaudeTranscriptWriter();
    w.prompt('one');
    w.progress();
    w.answer([{ type: 'text', text: 'first answer' }]);
    w.prompt('two');
    w.apiError();
    w.prompt('two again');
    w.answer([{ type: 'text', text: 'second answer' }]);
    const lines = w.finish().trim().split('\n');
    lines.push(lines.find((l) => l.includes('"role":"user","content":"one"'))!);
    const s = await loadClaudeSession(tmpFile(lines.join('\n')));
    assert.deepEqual(prompts(s.view), ['one', 'two', 'two again']);
    assert.doesNotMatch(JSON.stringify(s.history), /API Error/);
    assert.equal(s.skips.duplicate, 1);
    assert.equal(valid(s.history), null);

    const a = { type: 'user', uuid: 'a', parentUuid: 'b', message: { role: 'user', content: 'loop a' } };
    const b = { type: 'assistant', uuid: 'b', parentUuid: 'a', message: { role: 'assistant', content: [{ type: 'text', text: 'loop b' }] } };
    const cyc = await loadClaudeSession(tmpFile(`${JSON.stringify(a)}\n${JSON.stringify(b)}\n`));
    assert.equal(valid(cyc.history), null);
  });

  it('relinks the messages an older compaction kept by head and tail (preservedSegment)', async () => {
    const w = new ClaudeTranscriptWriter();
    w.prompt('inspect the log');
    const calls = w.answer([{ type: 'tool_use', name: 'Read', input: { file_path: 'log.txt' } }]);
    w.results(calls, ['many lines']);
    w.answer([{ type: 'text', text: 'It is long.' }]);
    w.prompt('and now?');
    w.answer([{ type: 'text', text: 'Now it is summarised.' }]);
    w.compact('the user inspects log.txt', { keep: 2, listKept: 'segment' });
    w.prompt('next');
    w.answer([{ type: 'text', text: 'ok' }]);
    const s = await loadClaudeSession(tmpFile(w.finish()));
    assert.deepEqual(prompts(s.view), ['and now?', 'next']);
    assert.equal(s.view[0]?.kind, 'compaction');
    assert.doesNotMatch(JSON.stringify(s.history), /inspect the log/);
    assert.equal(valid(s.history), null);
  });

  it('reads lines that name no parent at all (written by hand or another tool) in file order', async () => {
    const line = (o: object) => JSON.stringify({ sessionId: 'cc1', cwd: '/w', isSidechain: false, ...o });
    const s = await loadClaudeSession(
      tmpFile(
        [
          line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'Rename greet to welcome' } }),
          line({ type: 'assistant', uuid: 'a1', message: { role: 'assistant', content: [{ type: 'text', text: 'Renamed.' }] } }),
        ].join('\n'),
      ),
    );
    assert.deepEqual(s.view.map((v) => v.kind), ['user', 'assistant']);
    assert.equal(s.title, 'Rename greet to welcome');
  });

  it('takes the title a user gave (custom-title) over the first prompt', async () => {
    const w = new ClaudeTranscriptWriter();
    w.prompt('one');
    w.answer([{ type: 'text', text: 'a' }]);
    w.raw(JSON.stringify({ type: 'custom-title', customTitle: 'Parser rewrite', sessionId: w.sessionId }));
    const s = await loadClaudeSession(tmpFile(w.finish()));
    assert.equal(s.title, 'Parser rewrite');
  });
});
