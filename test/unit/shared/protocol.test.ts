import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_PATH_CHARS, MAX_PROMPT_CHARS, parseWebviewMessage } from '../../../src/shared/protocol';

describe('parseWebviewMessage', () => {
  const good: unknown[] = [
    { type: 'view/ready', payload: {} },
    { type: 'view/resync', payload: { lastSeq: 3 } },
    { type: 'chat/send', payload: { text: 'hello' } },
    { type: 'chat/stop', payload: {} },
    { type: 'permission/respond', payload: { requestId: 'r1', decision: 'allow-once' } },
    { type: 'command/run', payload: { command: 'setApiKey' } },
    { type: 'editor/openFile', payload: { path: 'src/app.ts' } },
    { type: 'editor/openFile', payload: { path: '/abs/file.ts', line: 12 } },
    { type: 'editor/insertText', payload: { text: 'const a = 1;\n' } },
    { type: 'edit/review', payload: { requestId: 'perm_1' } },
    { type: 'restore/preview', payload: { id: 'user_1', scope: 'both' } },
    { type: 'restore/apply', payload: { choices: { '/w/a.txt': 'keep', '/w/b.txt': 'restore' } } },
    { type: 'restore/openDiff', payload: { path: '/w/a.txt' } },
    { type: 'summarize/ask', payload: { id: 'user_1', direction: 'upTo' } },
    { type: 'summarize/preview', payload: { focus: '' } },
    { type: 'session/diff', payload: {} },
    { type: 'permission/respond', payload: { requestId: 'r1', decision: 'allow-server' } },
    { type: 'mcp/approve', payload: { name: 'github' } },
    { type: 'mcp/deny', payload: { name: 'db' } },
    { type: 'mcp/restart', payload: { name: 'notes' } },
  ];
  for (const message of good) {
    it(`accepts ${JSON.stringify(message)}`, () => {
      const r = parseWebviewMessage(message);
      assert.equal(r.ok, true);
    });
  }

  const bad: [string, unknown][] = [
    ['null', null],
    ['a string', 'chat/send'],
    ['an array', [1]],
    ['an unknown type', { type: 'chat/explode', payload: {} }],
    ['a prototype key as type', { type: 'constructor', payload: {} }],
    ['a missing payload', { type: 'chat/send' }],
    ['an MCP approval without a name', { type: 'mcp/approve', payload: { name: '' } }],
    ['an MCP approval naming no string', { type: 'mcp/approve', payload: { name: 7 } }],
    ['a non-string text', { type: 'chat/send', payload: { text: 42 } }],
    ['a blank text', { type: 'chat/send', payload: { text: '   ' } }],
    ['an oversized text', { type: 'chat/send', payload: { text: 'x'.repeat(MAX_PROMPT_CHARS + 1) } }],
    ['an unknown decision', { type: 'permission/respond', payload: { requestId: 'r', decision: 'always' } }],
    ['an unknown command', { type: 'command/run', payload: { command: 'rm -rf' } }],
    ['extra fields on an empty payload', { type: 'view/ready', payload: { x: 1 } }],
    ['a fractional seq', { type: 'view/resync', payload: { lastSeq: 1.5 } }],
    ['an empty path to open', { type: 'editor/openFile', payload: { path: '' } }],
    ['a path with a NUL byte', { type: 'editor/openFile', payload: { path: 'a\0b' } }],
    ['a restore of an unknown scope', { type: 'restore/preview', payload: { id: 'user_1', scope: 'files' } }],
    ['a conflict choice that is neither restore nor keep', { type: 'restore/apply', payload: { choices: { '/w/a.txt': 'overwrite' } } }],
    ['conflict choices that are not an object', { type: 'restore/apply', payload: { choices: ['/w/a.txt'] } }],
    ['a summary in an unknown direction', { type: 'summarize/ask', payload: { id: 'user_1', direction: 'sideways' } }],
    ['a focus that is not text', { type: 'summarize/preview', payload: { focus: 3 } }],
    ['an oversized path', { type: 'editor/openFile', payload: { path: 'a'.repeat(MAX_PATH_CHARS + 1) } }],
    ['a line 0', { type: 'editor/openFile', payload: { path: 'a.ts', line: 0 } }],
    ['a fractional line', { type: 'editor/openFile', payload: { path: 'a.ts', line: 2.5 } }],
    ['a line given as text', { type: 'editor/openFile', payload: { path: 'a.ts', line: '3' } }],
    ['a review without a request', { type: 'edit/review', payload: { requestId: '' } }],
    ['a review of a non-string request', { type: 'edit/review', payload: { requestId: 7 } }],
    ['nothing to insert', { type: 'editor/insertText', payload: { text: '' } }],
    ['an oversized insert', { type: 'editor/insertText', payload: { text: 'x'.repeat(MAX_PROMPT_CHARS + 1) } }],
  ];
  for (const [name, message] of bad) {
    it(`rejects ${name} with a reason`, () => {
      const r = parseWebviewMessage(message);
      assert.equal(r.ok, false);
      if (!r.ok) assert.ok(r.error.length > 0);
    });
  }
});

describe('what a handler receives', () => {
  it('only the keys its message names: anything else the page adds is dropped', () => {
    const r = parseWebviewMessage({ type: 'editor/openFile', payload: { path: 'a.ts', line: 3, __proto__x: 1, command: 'rm -rf /' } });
    assert.equal(r.ok, true);
    if (r.ok) assert.deepEqual(r.message, { type: 'editor/openFile', payload: { path: 'a.ts', line: 3 } });
  });

  it('a message that carries nothing refuses a payload that carries something', () => {
    assert.equal(parseWebviewMessage({ type: 'chat/stop', payload: { now: true } }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'chat/stop', payload: [] }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'chat/stop', payload: {} }).ok, true);
  });
});
