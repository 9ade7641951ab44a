import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseRule, Permissions, type PermissionRules } from '../../../src/permissions/permissions';
import { PermissionBroker } from '../../../src/permissions/permissionBroker';
import { createStore } from '../../../src/shared/store';
import { getDefaultAppState, type AppState } from '../../../src/state/appState';
import type { Tool } from '../../../src/tools/types';

function mcpTool(server: string, tool: string, opts: { name?: string; readOnlyHint?: boolean } = {}): Tool {
  const fullName = `mcp__${server}__${tool}`;
  return {
    name: opts.name ?? fullName,
    description: 'd',
    inputSchema: { type: 'object' },
    traits: { compactable: true, mcp: { server, tool, fullName } },
    parse: (i) => ({ ok: true, value: i }),
    isReadOnly: () => opts.readOnlyHint === true,
    summarize: () => `${tool} on ${server}`,
    paths: () => [],
    call: async () => ({ content: 'ran' }),
  };
}

function engine(rules: Partial<PermissionRules>, opts: { trusted?: boolean; headless?: boolean; saveServerRule?: (r: string) => Promise<void> } = {}) {
  return new Permissions({
    cwd: mkdtempSync(join(tmpdir(), 'tl-perm-')),
    rules: () => ({ allow: [], ask: [], deny: [], ...rules }),
    trusted: () => opts.trusted ?? true,
    ...(opts.headless ? { headless: true, rulesLabel: '--allowed-tools' } : {}),
    ...(opts.saveServerRule ? { saveServerRule: opts.saveServerRule } : {}),
  });
}

const decide = (p: Permissions, tool: Tool) => p.decide({ tool, input: { q: 1 } });

describe('permission rules for MCP tools', () => {
  const create = mcpTool('github', 'create_issue');

  it('ask by default, even when the server calls the tool read-only', () => {
    assert.equal(decide(engine({}), create).behavior, 'ask');
    const ro = decide(engine({}), mcpTool('github', 'list', { readOnlyHint: true }));
    assert.equal(ro.behavior, 'ask');
    assert.match(ro.reason, /tool of the MCP server github/);
  });

  it('mcp__server, mcp__server__* and mcp__server__tool allow; another server or tool does not; a pattern never matches', () => {
    for (const rule of ['mcp__github', 'mcp__github__*', 'mcp__github__create_issue']) assert.equal(decide(engine({ allow: [rule] }), create).behavior, 'allow', rule);
    for (const rule of ['mcp__gitlab', 'mcp__github__list', 'mcp__github__create_issue(x)', 'Read', 'Edit', 'Bash']) assert.equal(decide(engine({ allow: [rule] }), create).behavior, 'ask', rule);
    assert.equal(parseRule('mcp__github__*').tool, 'mcp__github__*');
  });

  it('a shortened name is matched by its full name too', () => {
    const shortened = mcpTool('srv', 'a_very_long_tool_name', { name: 'mcp__srv__a_very_lo_1234abcd' });
    assert.equal(decide(engine({ allow: ['mcp__srv__a_very_long_tool_name'] }), shortened).behavior, 'allow');
    assert.equal(decide(engine({ allow: ['mcp__srv__a_very_lo_1234abcd'] }), shortened).behavior, 'allow');
  });

  it('deny beats allow; ask beats allow; nothing MCP runs in Restricted Mode', () => {
    assert.equal(decide(engine({ allow: ['mcp__github'], deny: ['mcp__github__create_issue'] }), create).behavior, 'deny');
    assert.equal(decide(engine({ allow: ['mcp__github'], ask: ['mcp__github__*'] }), create).behavior, 'ask');
    const restricted = decide(engine({ allow: ['mcp__github'] }, { trusted: false }), create);
    assert.equal(restricted.behavior, 'deny');
    assert.match(restricted.reason, /Restricted Mode/);
  });

  it('headless: the refusal names the rules that would allow the tool and the server', () => {
    const v = decide(engine({}, { headless: true }), create);
    assert.equal(v.behavior, 'deny');
    assert.match(v.reason, /--allowed-tools 'mcp__github__create_issue', or every tool of that server with --allowed-tools 'mcp__github'/);
  });

  it('"Allow this server" allows every tool of the server at once and writes mcp__server to the user settings; "for this session" only the tool', async () => {
    const saved: string[] = [];
    const p = engine({}, { saveServerRule: async (r) => void saved.push(r) });
    const store = createStore<AppState>(getDefaultAppState({ sessionId: 's' }));
    const broker = new PermissionBroker(p, store);
    const asked = broker.check({ tool: create, input: { title: 'x' }, id: 'toolu_1' }, new AbortController().signal);
    while (!store.getState().permission) await new Promise((r) => setTimeout(r, 5));
    const prompt = store.getState().permission!;
    assert.deepEqual(prompt.mcp, { server: 'github', tool: 'create_issue' });
    assert.match(prompt.input ?? '', /"title": "x"/);
    broker.respond(prompt.requestId, 'allow-server');
    assert.deepEqual(await asked, { allowed: true });
    assert.deepEqual(saved, ['mcp__github']);
    assert.equal(decide(p, mcpTool('github', 'delete_repo')).behavior, 'allow');
    assert.equal(decide(p, mcpTool('gitlab', 'x')).behavior, 'ask');
    const q = engine({});
    q.grantForSession({ tool: create, input: {} });
    assert.equal(decide(q, create).behavior, 'allow');
    assert.equal(decide(q, mcpTool('github', 'delete_repo')).behavior, 'ask');
  });
});
