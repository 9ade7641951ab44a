import { release } from 'node:os';
import { MessagesClient } from '../api/messagesClient';
import { buildSystemBlocks, environmentSection } from '../context/systemPrompt';
import type { Logger } from '../ports/logger';
import type { AppState } from '../state/appState';
import type { RuntimeState } from '../state/runtimeState';
import type { Store } from '../state/store';
import { Agent, type PermissionVerdict } from './agent';
import type { LoopEvents, LoopResult } from './queryLoop';
import type { Tool } from './tools/types';
import type { MessagesRequest } from '../api/types';

export interface PermissionEngine {
  decide(call: { tool: Tool; input: unknown }): PermissionVerdict;
  grantForSession(call: { tool: Tool; input: unknown }): void;
}

export interface AgentSetup {
  store: Store<AppState>;
  runtime: RuntimeState;
  log: Logger;
  cwd: string;
  tools: readonly Tool[];
  permissions: PermissionEngine;
  apiKey(): Promise<string | undefined>;
  /** Empty: the SDK default (which reads ANTHROPIC_BASE_URL). */
  baseUrl(): string;
  maxTurns(): number;
  /** Dynamic system-prompt sections after the cache boundary (memory, instructions…). */
  dynamicSections?(): Promise<string[]>;
  isGitRepo?(): Promise<boolean>;
  loopEvents?: LoopEvents;
  onLoopComplete?(result: LoopResult, request: MessagesRequest | undefined): void;
}

export function localIsoDate(d = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Builds the agent both faces use; the hosts differ only in the ports they pass. */
export function createAgent(setup: AgentSetup): Agent {
  // The environment section is computed once per agent (per session): it sits in the
  // cached part of the prompt, and a date that changed mid-session would break the cache.
  let environment: Promise<string> | undefined;
  const env = () =>
    (environment ??= (async () =>
      environmentSection({
        cwd: setup.cwd,
        isGitRepo: (await setup.isGitRepo?.()) ?? false,
        platform: process.platform,
        osVersion: `${process.platform} ${release()}`,
        model: setup.store.getState().settings.model,
        date: localIsoDate(),
      }))());
  let clientKey = '';
  let client: MessagesClient | undefined;
  return new Agent({
    store: setup.store,
    runtime: setup.runtime,
    log: setup.log,
    cwd: setup.cwd,
    tools: setup.tools,
    createClient: async () => {
      const apiKey = await setup.apiKey();
      if (!apiKey) return undefined;
      const baseUrl = setup.baseUrl();
      const key = `${apiKey}\u0000${baseUrl}`;
      if (!client || key !== clientKey) {
        client = new MessagesClient({ apiKey, baseUrl });
        clientKey = key;
      }
      return client;
    },
    systemBlocks: async () => buildSystemBlocks([await env(), ...((await setup.dynamicSections?.()) ?? [])]),
    decide: (call) => setup.permissions.decide(call),
    grantForSession: (call) => setup.permissions.grantForSession(call),
    maxTurns: setup.maxTurns,
    ...(setup.loopEvents ? { loopEvents: setup.loopEvents } : {}),
    ...(setup.onLoopComplete ? { onLoopComplete: setup.onLoopComplete } : {}),
  });
}
