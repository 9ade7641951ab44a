// What each request offers of the MCP tools: stable order, deferral past a tenth of the window,
// ToolSearch loading definitions that stay through compaction and resume.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { estimateTokens } from '../../../src/conversation/tokens';
import { parseServerEntry } from '../../../src/mcp/config/parse';
import type { Connect, McpToolInfo } from '../../../src/mcp/connection';
import { McpManager } from '../../../src/mcp/manager';
import { TOOL_SEARCH } from '../../../src/mcp/search';
import { McpToolset } from '../../../src/mcp/toolset';
import { FileApprovalStore } from '../../../src/mcp/trust';
import { createToolRegistry } from '../../../src/tools/builtin';
import { CLEARED_PREFIX, microCompact } from '../../../src/compact/microCompact';

function tools(prefix: string, n: number, descChars = 200): McpToolInfo[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `${prefix}_tool_${String(i).padStart(2, '0')}`,
    description: `Does ${prefix} thing number ${i}. ${'x'.repeat(descChars)}`,
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  }));
}

/** A connection layer with no processes: each server answers with the tools given, when released. */
function fakeConnect(lists: Record<string, McpToolInfo[]>, gates: Record<string, Promise<void>> = {}): Connect {
  return async (opts) => {
    await gates[opts.name];
    return {
      serverInfo: { name: opts.name },
      listTools: async () => lists[opts.name] ?? [],
      callTool: async (name, args) => ({ content: [{ type: 'text', text: `${opts.name}.${name}(${JSON.stringify(args)})` }] }),
      close: async () => undefined,
    };
  };
}

const managers: McpManager[] = [];
after(() => Promise.all(managers.map((m) => m.shutdown())));

function setup(lists: Record<string, McpToolInfo[]>, gates: Record<string, Promise<void>> = {}) {
  const servers = Object.keys(lists).map((name) => {
    const p = parseServerEntry(name, { command: process.execPath });
    if (!p.ok) throw new Error(p.error);
    return { name, scope: 'user' as const, source: 'test', spec: p.spec, hash: p.hash, shadows: [] };
  });
  const manager = new McpManager({
    cwd: tmpdir(),
    home: tmpdir(),
    env: {},
    clientVersion: 't',
    readConfig: async () => ({ servers, problems: [], inputs: new Map(), flagErrors: [] }),
    trust: { isTrusted: () => true },
    approvals: new FileApprovalStore(join(mkdtempSync(join(tmpdir(), 'tl-a-')), 'a.json')),
    approveHint: () => '',
    trustHint: '',
    connect: async () => fakeConnect(lists, gates),
  });
  managers.push(manager);
  const toolset = new McpToolset({ manager, limits: () => ({ maxTokens: 25_000 }) });
  return { manager, toolset, registry: createToolRegistry().withSource(toolset) };
}

const names = (defs: Array<{ name: string }>) => defs.map((d) => d.name);
const use = (name: string, id = 'toolu_1'): MessageParam[] => [
  { role: 'user', content: 'go' },
  { role: 'assistant', content: [{ type: 'tool_use', id, name, input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
];

describe('MCP tools in requests', () => {
  it('definitions join after the built-in ones as servers become ready, and never move', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { manager, registry } = setup({ alpha: tools('alpha', 2, 10), beta: tools('beta', 2, 10) }, { alpha: gate });
    await manager.start();
    await manager.server('beta')!.whenReady(5000);
    const window = { contextWindow: 200_000 };
    const first = names(registry.definitions([], window));
    assert.deepEqual(first.slice(0, 6), ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob']);
    assert.deepEqual(first.slice(6), ['mcp__beta__beta_tool_00', 'mcp__beta__beta_tool_01']);
    release();
    await manager.server('alpha')!.whenReady(5000);
    const second = names(registry.definitions([], window));
    assert.deepEqual(second.slice(0, first.length), first, 'what was sent stays where it was');
    assert.deepEqual(second.slice(first.length), ['mcp__alpha__alpha_tool_00', 'mcp__alpha__alpha_tool_01']);
    assert.deepEqual(names(registry.definitions([], window)), second, 'the same again: the cached prefix holds');
    assert.equal(registry.categoryOf('mcp__alpha__alpha_tool_00'), 'MCP tools: alpha');
    assert.equal(registry.categoryOf('Read'), 'Tools');
    assert.ok(registry.has('compactable', 'mcp__beta__beta_tool_01'), 'MCP results take part in micro-compaction');
  });

  it('past a tenth of the window: names and ToolSearch only; a search loads definitions, appended in load order; they stay through compaction', async () => {
    const { manager, toolset, registry } = setup({ big: tools('big', 40, 400), other: tools('other', 10, 400) });
    await manager.settled(5000);
    const window = { contextWindow: 60_000 };
    const all = estimateTokens(registry.definitions([], { contextWindow: 10_000_000 }).slice(6));
    assert.ok(all > 6_000, `the definitions are past a tenth of the window (${all})`);
    const defs = registry.definitions([], window);
    assert.ok(toolset.deferred);
    assert.deepEqual(names(defs).slice(6), [TOOL_SEARCH]);
    const search = defs.find((d) => d.name === TOOL_SEARCH)!;
    assert.match(search.description, /big: big_tool_00, big_tool_01/);
    assert.ok(estimateTokens(defs.slice(6)) < 1500, `up front: ${estimateTokens(defs.slice(6))} tokens`);
    const r = await registry.get(TOOL_SEARCH)!.call({ query: 'select:mcp__other__other_tool_03,mcp__big__big_tool_07' }, { cwd: '/', signal: new AbortController().signal });
    assert.match(r.content, /Loaded 2/);
    const after1 = names(registry.definitions([], window)).slice(6);
    assert.deepEqual(after1, [TOOL_SEARCH, 'mcp__other__other_tool_03', 'mcp__big__big_tool_07']);
    // A call of a tool that was never loaded (the model read its name) loads it too, at the end.
    const h = use('mcp__big__big_tool_20');
    assert.deepEqual(names(registry.definitions(h, window)).slice(6), [...after1, 'mcp__big__big_tool_20']);
    // Compaction replaced the history: the loaded definitions stay, in the same order.
    assert.deepEqual(names(registry.definitions([{ role: 'user', content: 'summary' }], window)).slice(6), [...after1, 'mcp__big__big_tool_20']);
  });

  it('a resumed session gets the tools its history used, without a search', async () => {
    const { manager, registry } = setup({ big: tools('big', 40, 400) });
    await manager.settled(5000);
    const defs = names(registry.definitions(use('mcp__big__big_tool_05'), { contextWindow: 30_000 })).slice(6);
    assert.deepEqual(defs, [TOOL_SEARCH, 'mcp__big__big_tool_05']);
  });

  it('the switch to deferral keeps the definitions already used, drops the rest once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { manager, registry } = setup({ small: tools('small', 3, 10), big: tools('big', 40, 400) }, { big: gate });
    await manager.start();
    await manager.server('small')!.whenReady(5000);
    const window = { contextWindow: 30_000 };
    assert.deepEqual(names(registry.definitions([], window)).slice(6), ['mcp__small__small_tool_00', 'mcp__small__small_tool_01', 'mcp__small__small_tool_02']);
    release();
    await manager.server('big')!.whenReady(5000);
    assert.deepEqual(names(registry.definitions(use('mcp__small__small_tool_01'), window)).slice(6), [TOOL_SEARCH, 'mcp__small__small_tool_01']);
  });

  it('a call to a server that is still starting waits for it, then runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { manager, registry } = setup({ late: tools('late', 1, 10) }, { late: gate });
    await manager.start();
    const tool = registry.get('mcp__late__late_tool_00');
    assert.ok(tool, 'found before the server listed its tools');
    assert.deepEqual(tool.traits.mcp, { server: 'late', tool: 'late_tool_00', fullName: 'mcp__late__late_tool_00' });
    const call = tool.call({ id: 'x' }, { cwd: '/', signal: new AbortController().signal });
    setTimeout(release, 50);
    assert.equal((await call).content, 'late.late_tool_00({"id":"x"})');
    assert.equal(registry.get('mcp__nobody__x'), undefined);
  });

  it('missing required arguments are refused before the server is asked', async () => {
    const { manager, registry } = setup({ s: tools('s', 1, 10) });
    await manager.settled(5000);
    const r = registry.get('mcp__s__s_tool_00')!.parse({});
    assert.deepEqual(r, { ok: false, error: 'missing required field "id"' });
  });

  it('old MCP results are cleared by micro-compaction like Read results, also for a server that joined after the session began', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { manager, registry } = setup({ db: tools('db', 1, 10) }, { db: gate });
    await manager.start();
    // Asked once when the session starts, as createAgent does, before the server is ready.
    const compactable = registry.names('compactable');
    release();
    await manager.server('db')!.whenReady(5000);
    const h: MessageParam[] = [{ role: 'user', content: 'start' }];
    for (let i = 0; i < 20; i++) {
      h.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'mcp__db__db_tool_00', input: { id: String(i) } }] });
      h.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `${i}:`.padEnd(50_000, 'x') }] });
    }
    h.push({ role: 'assistant', content: 'done' });
    const d = microCompact({ history: h, now: 1_000_000, lastAssistantAt: 999_000, usedTokens: 10_000, warningAt: 150_000, compactable });
    assert.equal(d.cleared, 17);
    assert.match(JSON.stringify(d.history[2]), new RegExp(CLEARED_PREFIX.replace('[', '\\[')));
  });
});
