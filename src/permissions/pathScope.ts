// What a Bash command's files are judged against, and what a judgement says (see bashPaths.ts).

export interface PathFinding {
  behavior: 'deny' | 'ask';
  reason: string;
  /** The file, when known: what a headless refusal names. */
  path?: string;
  write?: boolean;
}

export interface PathScope {
  /** The workspace (absolute). */
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Where reads may go: the workspace and added folders. */
  readRoots: readonly string[];
  /** Where writes may go: the workspace. */
  writeRoots: readonly string[];
  /** The protected folder a write would land in (.git/, .claude/…), by the path as given and where it really leads, or undefined. */
  protectedDir(abs: string, real: string): string | undefined;
  /**
   * The deny rule (its source) that keeps the file tools off this real path: Read rules for a
   * read, Edit and Write rules for a write. A command an allow rule lets run is held to them too.
   */
  deniedBy?(real: string, write: boolean): string | undefined;
  /** The file ask rule (a Read one for reads) that covers the file, if any: such a file asks, as it would for the file tools. */
  askedBy?(real: string, write: boolean): string | undefined;
  /**
   * A Read deny rule (an Edit or Write one, for `write`) that covers something inside this real
   * folder, for a command that may read (or rewrite) all of it. `only`: of the files whose names it
   * accepts (a compiler reads its sources only).
   */
  deniedInside?(realFolder: string, write?: boolean, only?: (name: string) => boolean): string | undefined;
}
