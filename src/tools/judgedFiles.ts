// A judgement of a file kept while the file is unchanged (where it is, its size and time): the
// look before each Bash command reads a repository's index and multi-pack-indexes, which can be
// hundreds of megabytes, once, not before every command (pass 66 M1).

/** The newest judgements kept; an older one is made again when asked for. */
const KEPT = 1_000;

export class JudgedFiles {
  private readonly byState = new Map<string, string | undefined>();

  /** `judge`'s answer for the file as it is now (`salt`: anything else the answer depends on). */
  async get(file: string, state: { size: number; mtimeMs: number }, salt: string, judge: () => Promise<string | undefined>): Promise<string | undefined> {
    const key = `${file}\0${state.size}\0${state.mtimeMs}\0${salt}`;
    if (!this.byState.has(key)) {
      this.byState.set(key, await judge());
      if (this.byState.size > KEPT) this.byState.delete(this.byState.keys().next().value!);
    }
    return this.byState.get(key);
  }
}
