/** Files the agent read, newest last, without repeats: what a compaction puts back. */
export class RecentFiles {
  private readonly files: string[] = [];

  constructor(private readonly limit = 20) {}

  note(path: string): void {
    const i = this.files.indexOf(path);
    if (i >= 0) this.files.splice(i, 1);
    this.files.push(path);
    if (this.files.length > this.limit) this.files.shift();
  }

  newestFirst(): string[] {
    return [...this.files].reverse();
  }
}
