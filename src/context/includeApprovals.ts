/** Where approvals are kept (the editor's global state); the keys are opaque to it. */
export interface ApprovalMemory {
  get(): readonly string[];
  set(keys: readonly string[]): Promise<void>;
}

/**
 * An instruction file pulling in a file from outside the project is a way to smuggle
 * instructions in: the user is asked once per including file and included file, and the answer
 * is remembered. Keyed on both: an approval given to one project's CLAUDE.md must not let any
 * other repository include the same file unasked.
 */
export function rememberedApprovals(memory: ApprovalMemory, ask: (path: string, from: string) => Promise<boolean>): (path: string, from: string) => Promise<boolean> {
  const approved = new Set(memory.get());
  return async (path, from) => {
    const key = `${from}\0${path}`;
    if (approved.has(key)) return true;
    if (!(await ask(path, from))) return false;
    approved.add(key);
    await memory.set([...approved]);
    return true;
  };
}
