// An MCP server's tool in Threadline's tool contract: its traits say where it comes from (so
// rules and prompts can name the server), that old results may be cleared like Read's, and
// nothing about files or commands, so no file or Bash rule ever speaks for it.
import type { JsonSchema, Parsed, Tool, ToolResult } from '../tools/types';
import type { McpToolInfo } from './connection';
import { fullToolName, normalizeName } from './names';
import { toToolResult, type ResultLimits } from './results';
import type { McpServer } from './server';

/** Longer descriptions are cut, as Claude Code cuts them: one server must not fill the window with prose. */
const MAX_DESCRIPTION_CHARS = 2048;

export type McpInput = Record<string, unknown>;

function schemaOf(info: McpToolInfo): JsonSchema {
  const s = info.inputSchema;
  // The API takes object schemas only; a server that sends something else gets an open object.
  if (s && typeof s === 'object' && s.type === 'object') {
    // `$schema` tells the model nothing and costs tokens in every request (our own schemas drop it too).
    const { $schema: _dialect, ...rest } = s;
    return rest as JsonSchema;
  }
  return { type: 'object', properties: {} };
}

export function describeTool(info: McpToolInfo): string {
  const d = (info.description ?? info.title ?? '').trim() || `${info.name} (no description given by its server)`;
  return d.length > MAX_DESCRIPTION_CHARS ? `${d.slice(0, MAX_DESCRIPTION_CHARS)}… [description cut at ${MAX_DESCRIPTION_CHARS} characters]` : d;
}

function parseInput(schema: JsonSchema, input: unknown): Parsed<McpInput> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, error: 'the input must be a JSON object' };
  // The server checks its own schema; missing required fields are caught here to spare a round trip.
  const missing = (Array.isArray(schema.required) ? schema.required : []).filter((k): k is string => typeof k === 'string' && !(k in input));
  if (missing.length) return { ok: false, error: `missing required field${missing.length > 1 ? 's' : ''} ${missing.map((k) => `"${k}"`).join(', ')}` };
  return { ok: true, value: input as McpInput };
}

function argsSummary(input: McpInput): string {
  const json = JSON.stringify(input) ?? '';
  return json === '{}' ? '' : json.length > 100 ? `${json.slice(0, 99)}…` : json;
}

export interface McpToolDeps {
  server: McpServer;
  /** The tool's name in requests (`mcp__server__tool`, shortened past 64 characters). */
  name: string;
  info: McpToolInfo;
  limits(): ResultLimits;
  toolTimeoutMs: number;
  /** Asked before each call: why the server may not run it now (its approval no longer holds), or undefined. */
  beforeCall?(): Promise<string | undefined>;
}

export function mcpTool(d: McpToolDeps): Tool<McpInput> {
  const schema = schemaOf(d.info);
  const server = normalizeName(d.server.name);
  const a = d.info.annotations;
  return {
    name: d.name,
    description: describeTool(d.info),
    inputSchema: schema,
    traits: { compactable: true, mcp: { server, tool: d.info.name, fullName: fullToolName(d.server.name, d.info.name) } },
    parse: (input) => parseInput(schema, input),
    // Read-only hints only let calls run side by side; whether they ask is for the rules (the hint is the server's claim).
    isReadOnly: () => a?.readOnlyHint === true && a.destructiveHint !== true,
    summarize: (input) => `${d.info.name} on ${d.server.name}${argsSummary(input) ? ` ${argsSummary(input)}` : ''}`,
    paths: () => [],
    async call(input, ctx): Promise<ToolResult> {
      const refused = await d.beforeCall?.();
      if (refused) return { content: refused, isError: true };
      try {
        const r = await d.server.call(d.info.name, input, { signal: ctx.signal, timeoutMs: d.toolTimeoutMs });
        return await toToolResult(r, d.limits());
      } catch (err) {
        return { content: err instanceof Error ? err.message : String(err), isError: true };
      }
    },
  };
}
