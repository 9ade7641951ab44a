import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { NO_CONTENT, withoutBlankText } from '../../../src/conversation/blankText';
import { loadSession } from '../../../src/sessions/transcript';
import { validateRequest } from '../../standin/validate';

const blanky: MessageParam[] = [
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: [{ type: 'text', text: '\n\n' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: ' ' }] }, { type: 'text', text: '\t' }] },
  { role: 'assistant', content: [{ type: 'text', text: ' \n' }] },
  { role: 'user', content: '  ' },
];

describe('blank text blocks', () => {
  it('go from every message; a message left empty says (no content); the API takes the result', () => {
    assert.match(validateRequest({ model: 'm', max_tokens: 10, messages: blanky }) ?? '', /non-whitespace/);
    const clean = withoutBlankText(blanky);
    assert.equal(validateRequest({ model: 'm', max_tokens: 10, messages: clean }), null);
    assert.deepEqual(clean[1]!.content, [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }]);
    assert.deepEqual(clean[2]!.content, [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '(no output)' }]);
    assert.deepEqual(clean[3]!.content, [{ type: 'text', text: NO_CONTENT }]);
    assert.deepEqual(clean[4]!.content, [{ type: 'text', text: NO_CONTENT }]);
  });

  it('a clean history comes back as the same array', () => {
    const h: MessageParam[] = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'yo' }] }];
    assert.equal(withoutBlankText(h), h);
  });

  it('a transcript saved with blank blocks loads without them', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tl-blank-')), 's.jsonl');
    const lines = [{ t: 'meta', v: 1, id: 's', createdAt: 1, cwd: '/w', model: 'm' }, ...blanky.map((m) => ({ t: 'msg', m }))];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const loaded = await loadSession(file);
    assert.equal(validateRequest({ model: 'm', max_tokens: 10, messages: [...loaded.history, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'next' }] }), null);
  });
});
