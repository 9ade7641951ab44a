// The small parts of MCP: names, search, result mapping, approvals.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { estimateTokens, IMAGE_TOKENS } from '../../../src/conversation/tokens';
import { fullToolName, normalizeName, serverOfRule, toolNames } from '../../../src/mcp/names';
import { toToolResult } from '../../../src/mcp/results';
import { Bm25Index, listing, toolSearchTool, type SearchDoc } from '../../../src/mcp/search';
import { FileApprovalStore } from '../../../src/mcp/trust';

describe('MCP tool names', () => {
  it('are mcp__server__tool in the characters the API takes', () => {
    assert.equal(fullToolName('my.server', 'get item'), 'mcp__my_server__get_item');
    assert.equal(normalizeName(''), '_');
  });

  it('past 64 characters they get a stable short form ending in a hash; alike names are told apart', () => {
    const long = 'create_or_update_the_repository_file_contents_with_a_commit';
    const names = toolNames('github-enterprise', [long, 'get.item', 'get_item', 'ok']);
    const short = names.get(long)!;
    assert.ok(short.length <= 64 && /^[A-Za-z0-9_-]+$/.test(short), short);
    assert.ok(short.startsWith('mcp__github-enterprise__create_or_update'));
    assert.match(short, /_[0-9a-f]{8}$/);
    assert.equal(toolNames('github-enterprise', ['ok', long]).get(long), short, 'the same in every session and list order');
    assert.notEqual(names.get('get.item'), names.get('get_item'));
    assert.equal(names.get('ok'), 'mcp__github-enterprise__ok');
    assert.equal(new Set(names.values()).size, 4);
  });

  it('rules name a server as mcp__server or mcp__server__*; mcp__server__tool names a tool', () => {
    assert.equal(serverOfRule('mcp__github'), 'github');
    assert.equal(serverOfRule('mcp__my_server'), 'my_server');
    assert.equal(serverOfRule('mcp__github__*'), 'github');
    assert.equal(serverOfRule('mcp__github__create_issue'), undefined);
    assert.equal(serverOfRule('Read'), undefined);
  });
});

describe('ToolSearch', () => {
  const docs: SearchDoc[] = [
    { name: 'mcp__github__create_issue', server: 'github', tool: 'create_issue', description: 'Open a new issue in a repository' },
    { name: 'mcp__github__list_pull_requests', server: 'github', tool: 'list_pull_requests', description: 'List pull requests; filter by state' },
    { name: 'mcp__jira__createTicket', server: 'jira', tool: 'createTicket', description: 'Create a ticket (an issue) in a Jira project' },
    { name: 'mcp__db__query', server: 'db', tool: 'query', description: 'Run a read-only SQL query' },
  ];

  it('ranks by BM25 over names and descriptions, names first, the same answer every time', () => {
    const index = new Bm25Index(docs);
    assert.deepEqual(index.search('create issue', 2).map((d) => d.tool), ['create_issue', 'createTicket']);
    assert.deepEqual(index.search('pull request', 5).map((d) => d.tool), ['list_pull_requests']);
    assert.deepEqual(index.search('sql', 5).map((d) => d.tool), ['query']);
    assert.deepEqual(index.search('nothing matches this', 5), []);
  });

  it('loads what it finds or what select: names, and lists the names by server in its description', async () => {
    const loaded: string[] = [];
    const tool = toolSearchTool({ docs: () => docs, load: (n) => (loaded.push(...n), [...n]) });
    assert.match(tool.description, /github: create_issue, list_pull_requests\njira: createTicket\ndb: query/);
    assert.equal(listing(docs).split('\n').length, 3);
    const r = await tool.call({ query: 'select:mcp__db__query,mcp__nope__x' }, { cwd: '/', signal: new AbortController().signal });
    assert.deepEqual(loaded, ['mcp__db__query']);
    assert.match(r.content, /Loaded 1 tool definition.*mcp__db__query.*No deferred tool is named mcp__nope__x/s);
    await tool.call({ query: 'ticket', max_results: 1 }, { cwd: '/', signal: new AbortController().signal });
    assert.deepEqual(loaded, ['mcp__db__query', 'mcp__jira__createTicket']);
    assert.equal(tool.parse({}).ok, false);
    assert.equal(tool.parse({ query: 'x', max_results: 99 }).ok, false);
  });
});

describe('MCP results as API blocks', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  const limits = { maxTokens: 25_000 };

  it('text stays text; images become image blocks with the text beside them; resources and links are described', async () => {
    const r = await toToolResult(
      {
        content: [
          { type: 'text', text: 'hello' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside' } },
          { type: 'resource_link', uri: 'https://x/y', name: 'y', description: 'a doc' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        ],
      },
      limits,
    );
    assert.deepEqual(r.blocks?.map((b) => b.type), ['text', 'image']);
    assert.deepEqual((r.blocks![1] as { source: unknown }).source, { type: 'base64', media_type: 'image/png', data: PNG });
    const text = (r.blocks![0] as { text: string }).text;
    assert.match(text, /hello\n\n\[resource file:\/\/\/a\.txt \(text\/plain\)\]\ninside\n\n\[resource link: y <https:\/\/x\/y>\] a doc\n\n\[audio: audio\/wav/);
    assert.match(r.content, /\[image: image\/png/, 'people see that an image came back');
    const plain = await toToolResult({ content: [{ type: 'text', text: 'only text' }], isError: true }, limits);
    assert.deepEqual(plain, { content: 'only text', isError: true });
    assert.equal((await toToolResult({ content: [], structuredContent: { a: 1 } }, limits)).content, '{\n  "a": 1\n}');
    assert.equal((await toToolResult({ content: [] }, limits)).content, '(no output)');
  });

  it('images the API refuses are described instead (type, size)', async () => {
    const r = await toToolResult({ content: [{ type: 'image', data: 'AAAA', mimeType: 'image/tiff' }, { type: 'image', data: 'A'.repeat(8 * 1024 * 1024), mimeType: 'image/png' }] }, limits);
    assert.equal(r.blocks, undefined);
    assert.match(r.content, /image\/tiff.*PNG, JPEG, GIF and WebP/);
    assert.match(r.content, /over the API's 5 MB per image/);
  });

  it('over the cap: the whole text goes to a file (JSON pretty-printed to be paged), the result keeps a head and the path, within the cap', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tl-spill-'));
    const big = JSON.stringify({ rows: Array.from({ length: 20_000 }, (_, i) => ({ i, name: `row ${i}` })) });
    let written = '';
    const r = await toToolResult({ content: [{ type: 'text', text: big }] }, { maxTokens: 1000, writeAside: async (t) => ((written = t), join(dir, 'x.txt')) });
    assert.ok(r.content.length <= 4000, `${r.content.length} characters`);
    assert.ok(r.content.startsWith(big.slice(0, 100)));
    assert.match(r.content, /about \d+ tokens, over the 1000-token limit.*written to .*x\.txt.*Read that file in pages/s);
    assert.equal(written, JSON.stringify(JSON.parse(big), null, 2));
    const failing = await toToolResult({ content: [{ type: 'text', text: big }] }, { maxTokens: 1000, writeAside: async () => Promise.reject(new Error('disk full')) });
    assert.match(failing.content, /could not be written to a file \(disk full\)/);
    assert.ok(!existsSync(join(dir, 'x.txt')));
  });

  it('images count at their token cost, not their base64 length', () => {
    const block = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(1_000_000) } };
    const est = estimateTokens([{ type: 'text', text: 'abcd' }, block]);
    assert.ok(est >= IMAGE_TOKENS && est < IMAGE_TOKENS + 100, String(est));
    assert.equal(estimateTokens('abcdefgh'), 2);
  });
});

describe('approvals in the user state', () => {
  it('an approval holds for its definition; a denial for the name; reset forgets; a damaged file asks again', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tl-appr-')), 'mcp-approvals.json');
    const store = new FileApprovalStore(file);
    const ws = mkdtempSync(join(tmpdir(), 'tl-ws-'));
    assert.equal(await store.decision(ws, 'a', 'h1'), undefined);
    await store.record(ws, 'a', 'h1', 'approved');
    await store.record(ws, 'b', 'h2', 'denied');
    assert.equal(await store.decision(ws, 'a', 'h1'), 'approved');
    assert.equal(await store.decision(ws, 'a', 'h-changed'), undefined);
    assert.equal(await store.decision(ws, 'b', 'anything'), 'denied');
    assert.equal(await store.decision(mkdtempSync(join(tmpdir(), 'tl-ws-')), 'a', 'h1'), undefined, 'another folder has its own answers');
    assert.equal(await store.reset(ws, 'b'), 1);
    assert.equal(await store.decision(ws, 'b', 'h2'), undefined);
    assert.equal(await store.reset(ws), 1);
    assert.equal(await store.decision(ws, 'a', 'h1'), undefined);
    writeFileSync(file, '{ damaged');
    assert.equal(await store.decision(ws, 'a', 'h1'), undefined);
    await store.record(ws, 'a', 'h1', 'approved');
    assert.match(readFileSync(file, 'utf8'), /"approved"/);
  });
});
