import type { ToolResultContentBlock } from '../api/types';

/** A JSON Schema object, as the Messages API takes it in `input_schema`. */
export type JsonSchema = { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };

export interface ToolContext {
  /** The workspace folder; relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  /** What a long call has printed so far (the end of it), for the panel while it runs; never the result. */
  onOutput?(text: string): void;
}

export interface ToolResult {
  /** The result as text: what the panel and the CLI show, and what the model gets unless `blocks` is set. */
  content: string;
  /** What the model gets when the result is more than text (an image): `content` still describes it for people. */
  blocks?: ToolResultContentBlock[];
  isError?: boolean;
}

/** Where a tool from an MCP server comes from, as permission rules and prompts name it. */
export interface McpOrigin {
  /** The server's name as tool names carry it (`[A-Za-z0-9_-]`). */
  readonly server: string;
  /** The tool's name as the server gives it. */
  readonly tool: string;
  /** `mcp__server__tool` before any shortening to 64 characters: rules may name the tool by it. */
  readonly fullName: string;
}

/** What a permission check answers for one call: run it, or refuse with a reason the model sees. */
export type PermissionOutcome = { allowed: true } | { allowed: false; reason: string };

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * What a tool is, declared once by the tool, so that permissions, micro-compaction, background
 * agents and the UI ask the tool instead of keeping lists of names.
 */
export interface ToolTraits {
  /** Reads the files its `paths` name: read rules (and a `Read` deny) apply to it. */
  readonly readsFiles?: boolean;
  /** Its result is the content of the one file it names: compaction may re-attach it after summarising. */
  readonly returnsFileContent?: boolean;
  /** Writes the files its `paths` name: edit rules (and an `Edit` deny) apply to it. */
  readonly writesFiles?: boolean;
  /**
   * Finds text in the files it writes (Edit's old_string): whether it succeeds tells what they
   * hold, so a `Read` deny rule on a file denies it too (pass 46 F1).
   */
  readonly matchesText?: boolean;
  /** Runs shell commands: Bash rules apply to it. */
  readonly runsCommands?: boolean;
  /** Its old results can be had again by calling it again, so micro-compaction may clear them. */
  readonly compactable?: boolean;
  /** What background agents (session notes, memory extraction) may be given it for, if anything. */
  readonly background?: 'read' | 'write';
  /**
   * Comes from an MCP server: rules that name the server (`mcp__server`, `mcp__server__*`) or the
   * tool by its full name cover it, it asks unless a rule allows it, and it never runs in
   * Restricted Mode, whatever the server says about it.
   */
  readonly mcp?: McpOrigin;
}

/**
 * A tool the model can call. `parse` validates the model's input before anything else sees it,
 * so permissions and summaries only ever deal with well-formed input.
 */
export interface Tool<I = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly traits: ToolTraits;
  parse(input: unknown): Parsed<I>;
  /** Read-only calls may run in parallel and, by default, without asking. */
  isReadOnly(input: I): boolean;
  /** One line for a tool card or a permission prompt. */
  summarize(input: I): string;
  /** The file paths the call touches, for permission rules and the outside-workspace check. */
  paths(input: I, cwd: string): string[];
  call(input: I, ctx: ToolContext): Promise<ToolResult>;
}
