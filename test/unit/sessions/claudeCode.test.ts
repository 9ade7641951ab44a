import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { claudeProjectDir, listClaudeSessions, loadClaudeSession } from '../../../src/sessions/claudeCode';
import { validateRequest } from '../../standin/validate';

// A transcript in the Claude Code CLI's format (one JSON object per line), written by hand.
function transcript(): string {
  const base = { sessionId: 's', cwd: '/w', version: '2.1.197', userType: 'external' };
  const lines = [
    { type: 'queue-operation', operation: 'enqueue', content: 'Fix the failing test' },
    { ...base, type: 'user', isSidechain: false, uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'Fix the failing test' } },
    { ...base, type: 'attachment', isSidechain: false, uuid: 'x1', attachment: { type: 'skill_listing', content: '…' } },
    { ...base, type: 'assistant', isSidechain: false, uuid: 'a1', message: { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }] } },
    { ...base, type: 'assistant', isSidechain: false, uuid: 'a2', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a.test.ts' } }] } },
    { ...base, type: 'user', isSidechain: false, uuid: 'u2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1\ttest()' }] } },
    { ...base, type: 'assistant', isSidechain: true, uuid: 'side', message: { role: 'assistant', content: [{ type: 'text', text: 'sub-agent chatter' }] } },
    'not json {',
    { ...base, type: 'assistant', isSidechain: false, uuid: 'a3', message: { role: 'assistant', content: [{ type: 'text', text: 'Fixed the assertion.' }, { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'npm test' } }] } },
    { type: 'last-prompt', lastPrompt: 'Fix the failing test', sessionId: 's' },
  ];
  return lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
}

describe('Claude Code transcripts', () => {
  it('are found under ~/.claude/projects for the folder, and converted on read into a valid history', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tl-cchome-'));
    const cwd = '/work/my.repo';
    const dir = claudeProjectDir(cwd, home);
    assert.equal(dir, join(home, '.claude', 'projects', '-work-my-repo'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '11111111-2222.jsonl'), transcript());
    writeFileSync(join(dir, 'empty.jsonl'), JSON.stringify({ type: 'queue-operation' }) + '\n');
    const list = await listClaudeSessions(cwd, home);
    assert.deepEqual(list.map((s) => [s.id, s.title]), [['11111111-2222', 'Fix the failing test']]);
    const before = readFileSync(list[0]!.file, 'utf8');
    const s = await loadClaudeSession(list[0]!.file);
    assert.equal(readFileSync(list[0]!.file, 'utf8'), before, 'the transcript is never changed');
    assert.equal(s.skipped, 1);
    assert.equal(validateRequest({ model: 'm', max_tokens: 1, messages: s.history }), null);
    const text = JSON.stringify(s.history);
    assert.doesNotMatch(text, /sub-agent chatter/);
    assert.match(text, /Result not recorded/, 'the final unanswered Bash call is answered');
    assert.deepEqual(s.view.map((m) => m.kind), ['user', 'assistant', 'tool', 'assistant', 'tool']);
  });
});

describe('Claude Code transcripts with thinking', () => {
  it('leave the thinking out on import: its signatures belong to another conversation (and perhaps model), which would wedge every request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tl-ccthink-'));
    const base = { sessionId: 's', cwd: '/w', version: '2.1.197', userType: 'external', isSidechain: false };
    const lines = [
      { ...base, type: 'user', uuid: 'u1', message: { role: 'user', content: 'Why does it fail?' } },
      { ...base, type: 'assistant', uuid: 'a1', message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'Look at the test first.', signature: 'RXh0ZXJuYWxTaWduYXR1cmU=' }] } },
      { ...base, type: 'assistant', uuid: 'a2', message: { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'b3BhcXVl' }] } },
      { ...base, type: 'assistant', uuid: 'a3', message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'cut short' }] } },
      { ...base, type: 'assistant', uuid: 'a4', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'Read', input: { file_path: 'a.ts' } }] } },
      { ...base, type: 'user', uuid: 'u2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'code' }] } },
    ];
    const file = join(dir, 'think.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const s = await loadClaudeSession(file);
    assert.ok(!JSON.stringify(s.history).includes('thinking'), JSON.stringify(s.history));
    assert.equal(s.history.length, 3);
    // (With `enabled`, the request builder leaves thinking out for this turn: see api/thinking.ts.)
    for (const thinking of [undefined, { type: 'adaptive' }]) {
      assert.equal(validateRequest({ model: 'claude-sonnet-4-6', max_tokens: 8000, messages: s.history, ...(thinking ? { thinking } : {}) }), null);
    }
  });
});
