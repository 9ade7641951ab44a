import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Permissions } from '../../../src/permissions/permissions';
import { createChatHandlers } from '../../../src/chat/chatController';
import { buildContextReport } from '../../../src/chat/contextReport';
import { ContextService } from '../../../src/context/contextService';
import { silentLogger } from '../../../src/ports/logger';
import type { ContextReport } from '../../../src/shared/contextView';
import type { HostToWebviewMessage } from '../../../src/shared/protocol';
import { ViewSync } from '../../../src/state/viewSync';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';
import { testHost } from '../../support/host';
import { chatDeps } from '../../support/chatDeps';

const standin = useStandin();

function setupIn(root: string) {
  const cwd = mkdtempSync(join(root, 'repo-'));
  const home = mkdtempSync(join(root, 'home-'));
  writeFileSync(join(cwd, 'CLAUDE.md'), '# Project rules\n\nAlways run the unit tests before committing.\n');
  const permissions = new Permissions({ cwd, rules: () => ({ allow: ['Bash(npm test)'], ask: [], deny: ['Read(./secrets/**)'] }), trusted: () => true, headless: true });
  const context = new ContextService({ cwd, home, managedRoot: null, filesystemRoot: root, host: testHost() });
  const { agent, store } = createStandinAgent({ url: standin.url, cwd, settings: { contextWindow: 200_000 }, headless: true, extra: { permissions, context } });
  const replies: HostToWebviewMessage[] = [];
  const handlers = createChatHandlers(
    chatDeps(store, {
      contextReport: () => buildContextReport(store.getState(), agent.previewContext(), permissions.describeRules().rules),
      reply: (m) => replies.push(structuredClone(m)),
    }),
  );
  const ask = async (): Promise<ContextReport> => {
    await handlers['context/request']({});
    const last = replies.at(-1);
    assert.equal(last?.type, 'context/report', 'context/request is answered with context/report');
    return (last as Extract<HostToWebviewMessage, { type: 'context/report' }>).payload.report;
  };
  return { agent, store, ask };
}

const tokensOf = (r: ContextReport, name: string) => r.categories.find((c) => c.name === name)?.tokens ?? 0;

describe('the Context view report', () => {
  it('from a real agent: categories to the window, thresholds in order, instruction files and rules with sources; the figures move after a reply', async () => {
    const { agent, ask } = setupIn(mkdtempSync(join(tmpdir(), 'tl-ctxreport-')));
    const before = await ask();
    assert.equal(before.contextWindow, 200_000);
    assert.equal(before.lastResponse, null, 'no response yet');
    assert.ok(tokensOf(before, 'Tools') > 0, 'the tool definitions are counted');
    assert.ok(tokensOf(before, 'Static system prompt') > 0, 'the system prompt is counted');
    const t = before.thresholds;
    assert.ok(0 < t.warningAt && t.warningAt < t.autoCompactAt && t.autoCompactAt < t.blockingAt && t.blockingAt <= before.contextWindow, JSON.stringify(t));
    const file = before.instructionFiles.find((f) => f.path.endsWith('CLAUDE.md'));
    assert.ok(file, JSON.stringify(before.instructionFiles));
    assert.equal(file.status, 'included');
    assert.ok(file.tokens > 0 && file.detail.length > 0);
    assert.deepEqual(
      before.rules.map((r) => [r.behavior, r.rule]).sort(),
      [
        ['allow', 'Bash(npm test)'],
        ['deny', 'Read(./secrets/**)'],
      ],
    );
    assert.ok(before.rules.every((r) => r.source.length > 0 && r.active));
    assert.ok(before.categories.every((c) => Number.isInteger(c.tokens) && c.tokens > 0));

    standin.enqueue({ content: [{ type: 'text', text: 'A considered answer that runs on for a while. '.repeat(40) }] });
    await agent.submit('Explain the build of this project in detail, please.');
    await agent.drain();
    const afterReply = await ask();
    assert.ok(tokensOf(afterReply, 'Messages') > tokensOf(before, 'Messages'), 'the question and the answer are now in the messages');
    assert.ok(afterReply.lastResponse, 'the last response is reported');
    const u = afterReply.lastResponse;
    assert.ok(u.cacheRead + u.cacheWrite + u.uncached > 0 && u.output > 0, JSON.stringify(u));
    assert.ok(afterReply.used > before.used, 'the meter figure moved');
    assert.ok(afterReply.messageCount > before.messageCount);
  });

  it('a preview that fails still gives a report, with the error named', async () => {
    const { store } = createStandinAgent({ url: standin.url, cwd: mkdtempSync(join(tmpdir(), 'tl-ctxreport-')), headless: true });
    const r = await buildContextReport(store.getState(), Promise.reject(new Error('git was not found')));
    assert.equal(r.breakdownError, 'git was not found');
    assert.deepEqual(r.categories, []);
    assert.ok(r.thresholds.blockingAt > 0);
  });

  it('a report or an open asked for before the webview listens is delivered after its ready, not lost', async () => {
    const { store } = createStandinAgent({ url: standin.url, cwd: mkdtempSync(join(tmpdir(), 'tl-ctxreport-')), headless: true });
    const handlers = createChatHandlers(chatDeps(store));
    const sync = new ViewSync(store, handlers, silentLogger);
    const posted: HostToWebviewMessage[] = [];
    sync.attach({ postMessage: (m) => posted.push(m) });
    sync.send({ type: 'context/open', payload: {} });
    sync.send({ type: 'context/open', payload: {} });
    assert.equal(posted.length, 0, 'nothing before view/ready');
    await sync.receive({ type: 'view/ready', payload: {} });
    assert.deepEqual(
      posted.map((m) => m.type),
      ['state/snapshot', 'context/open'],
      'the snapshot first, then one open',
    );
    sync.dispose();
  });
});
