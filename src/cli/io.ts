/** Where the CLI writes: stdout for results, stderr for everything a script should not parse. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const stdio: CliIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };
