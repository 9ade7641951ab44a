// Pass 37 B4: JSON nested 20,000 deep. A model's tool input that deep ended the turn with
// "Maximum call stack size exceeded" (JSON.stringify of the next request recursed), and a
// transcript line holding a 500,000-deep object made every resume of that session exit 1 instead
// of skipping the line. Every JSON reader now bounds nesting before it parses (src/fs/jsonText.ts),
// and lint keeps JSON.parse to that module.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { parseToolInput } from '../../src/api/messagesClient';
import { MAX_JSON_DEPTH, parseJson } from '../../src/fs/jsonText';
import { loadSession } from '../../src/sessions/transcript';
import { useCli } from '../support/useCli';

const root = resolve(__dirname, '../..');
const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('pass 37 B4: deeply nested JSON', () => {
  it('a tool input 20,000 deep becomes a malformed input the tool refuses, and the next request can be written', () => {
    const raw = `{"file_path":"src/a.txt","x":${deepArray(20_000)}}`;
    const input = parseToolInput(raw) as Record<string, unknown>;
    assert.equal(typeof input.__malformed_input, 'string');
    assert.doesNotThrow(() => JSON.stringify({ content: [{ type: 'tool_use', input }] }));
  });

  it('an ordinary tool input, and one nested to the bound, still parse', () => {
    assert.deepEqual(parseToolInput('{"file_path":"a.txt","limit":3}'), { file_path: 'a.txt', limit: 3 });
    assert.doesNotThrow(() => parseJson(deepArray(MAX_JSON_DEPTH)));
    assert.throws(() => parseJson(deepArray(MAX_JSON_DEPTH + 1)), /nested deeper than 256 levels/);
    // Brackets inside strings are text, not nesting.
    assert.deepEqual(parseJson(JSON.stringify({ s: '['.repeat(10_000) })), { s: '['.repeat(10_000) });
  });

  it('a transcript line 500,000 deep is skipped and named; the lines around it load', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tl-deepjson-')));
    const file = join(dir, 's.jsonl');
    const msg = (text: string) => JSON.stringify({ t: 'msg', m: { role: 'user', content: [{ type: 'text', text }] } });
    appendFileSync(file, `${JSON.stringify({ t: 'meta', v: 1, id: 'x', cwd: dir, createdAt: 1, model: 'claude-sonnet-4-5' })}\n${msg('before')}\n`);
    appendFileSync(file, `{"t":"msg","m":{"role":"user","content":[{"type":"text","text":"x"}],"z":${deepObject(500_000)}}}\n`);
    appendFileSync(file, `${msg('after')}\n`);
    const loaded = await loadSession(file);
    assert.equal(loaded.skipped.length, 1, JSON.stringify(loaded.skipped));
    assert.match(loaded.skipped[0]!.reason, /nested deeper/);
    assert.deepEqual(loaded.history.map((m) => (m.content as Array<{ text: string }>)[0]!.text), ['before', 'after']);
  });

  it('lint fails JSON.parse anywhere in src but the JSON reader', async () => {
    const eslint = new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.mjs') });
    const text = 'export const v = (t: string): unknown => JSON.parse(t);\n';
    for (const path of ['src/sessions/stray.ts', 'src/vscode/stray.ts', 'src/api/stray.ts']) {
      const [r] = await eslint.lintText(text, { filePath: join(root, path) });
      assert.ok(r!.messages.some((m) => m.ruleId === 'no-restricted-properties'), `${path}: ${r!.messages.map((m) => m.message).join('; ')}`);
    }
    const [own] = await eslint.lintText(text, { filePath: join(root, 'src/fs/jsonText.ts') });
    assert.deepEqual(own!.messages.filter((m) => m.ruleId === 'no-restricted-properties'), []);
  });
});

describe('pass 37 B4 through the CLI: a model sends a tool input 20,000 deep', () => {
  const { standin, run } = useCli();

  it('the tool refuses it, the turn goes on, and a later call in the same run works', async () => {
    const cwd = join(realpathSync(mkdtempSync(join(tmpdir(), 'tl-deepjson-cli-'))), 'ws');
    mkdirSync(join(cwd, 'src'), { recursive: true });
    writeFileSync(join(cwd, 'src', 'a.txt'), 'READ-AFTER-DEEP\n');
    standin.reset();
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: {}, rawJson: `{"file_path":"src/a.txt","x":${deepArray(20_000)}}` }] });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'src/a.txt' } }] });
    standin.enqueue({ content: [{ type: 'text', text: 'Done.' }] });
    const r = await run(['-p', 'read it', '--output-format', 'json'], { cwd });
    assert.equal(r.code, 0, r.err);
    const sent = standin.requests.map((q) => JSON.stringify(q.body));
    assert.equal(sent.length, 3, r.err);
    assert.match(sent[1]!, /nested deeper than 256 levels/);
    assert.match(sent[2]!, /READ-AFTER-DEEP/);
  });
});
