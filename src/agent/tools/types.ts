/** A JSON Schema object, as the Messages API takes it in `input_schema`. */
export type JsonSchema = { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };

export interface ToolContext {
  /** The workspace folder; relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
}

export interface ToolResult {
  content: string;
  isError?: boolean;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * A tool the model can call. `parse` validates the model's input before anything else sees it,
 * so permissions and summaries only ever deal with well-formed input.
 */
export interface Tool<I = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  parse(input: unknown): Parsed<I>;
  /** Read-only calls may run in parallel and, by default, without asking. */
  isReadOnly(input: I): boolean;
  /** One line for a tool card or a permission prompt. */
  summarize(input: I): string;
  /** The file paths the call touches, for permission rules and the outside-workspace check. */
  paths(input: I, cwd: string): string[];
  call(input: I, ctx: ToolContext): Promise<ToolResult>;
}
