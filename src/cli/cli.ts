declare const __THREADLINE_VERSION__: string | undefined;

export const VERSION = typeof __THREADLINE_VERSION__ === 'string' ? __THREADLINE_VERSION__ : '0.0.0-dev';

export const HELP = `threadline ${VERSION} — a coding agent that keeps the thread through long sessions

Usage:
  threadline -p PROMPT [options]     answer one prompt and exit
  threadline --version               print the version
  threadline --help                  print this help
`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const stdio: CliIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

export async function runCli(argv: string[], io: CliIo = stdio): Promise<number> {
  if (argv.includes('--version') || argv.includes('-v')) {
    io.out(`${VERSION}\n`);
    return 0;
  }
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    io.out(HELP);
    return 0;
  }
  io.err(`threadline: unknown arguments: ${argv.join(' ')} (see --help)\n`);
  return 2;
}
