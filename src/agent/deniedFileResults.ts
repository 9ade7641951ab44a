// An Edit or Write result shows lines of the file it changed (the edit in context, a message that
// quotes the text it looked for). Of a file a Read deny rule keeps from the model, that was a read
// by another name: two edits, `A=1` to `A=1 ` and back, returned a whole `.env` and left it as it
// was (pass 43 E1). Such a result keeps only what happened, never the file's text.
import type { PermissionEngine } from '../permissions/permissionBroker';
import type { Tool, ToolResult } from '../tools/types';

/** The revision of a result that withholds a denied file's text; `read` is the Read tool, whose deny rules decide. */
export function deniedFileResults(read: Tool | undefined, permissions: Pick<PermissionEngine, 'decide' | 'deniedOutright'>): (call: { tool: Tool; input: unknown }, result: ToolResult) => ToolResult {
  return (call, result) => {
    if (!read || !call.tool.traits.writesFiles) return result;
    const path = (call.input as { file_path?: unknown } | undefined)?.file_path;
    if (typeof path !== 'string') return result;
    const call2 = { tool: read, input: { file_path: path } };
    if (!(permissions.deniedOutright?.(call2) ?? permissions.decide(call2).behavior === 'deny')) return result;
    const verdict = permissions.decide(call2);
    const what = result.isError ? `The ${call.tool.name} of ${path} failed` : `${path} was changed (${call.tool.name})`;
    return { content: `${what}. Its text is not shown: ${verdict.reason ?? 'a Read deny rule covers it.'}`, ...(result.isError ? { isError: true } : {}) };
  };
}

/** Whether the Read tool's deny rules cover `path`: what instruction files and their includes are held to too (pass 43 E2). */
export function readDeniedBy(permissions: Pick<PermissionEngine, 'decide' | 'deniedOutright' | 'askedByRule'>, tools: { get(name: string): Tool | undefined }): (path: string) => boolean {
  return (path) => {
    const read = tools.get('Read');
    if (read === undefined) return false;
    // Denied by a rule, not merely asking (a headless run's decide() turns every ask into a deny).
    const call = { tool: read, input: { file_path: path } };
    // An include cannot ask: a file an ask rule covers is left out too (pass 49 G3).
    return (permissions.deniedOutright?.(call) ?? permissions.decide(call).behavior === 'deny') || permissions.askedByRule?.(call) === true;
  };
}
