import { createInterface } from 'node:readline';
import { UNSAFE_BEYOND_ASCII } from '../base/printable';

/** Where the CLI writes: stdout for results, stderr for everything a script should not parse. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

// C0 controls but tab and newline, DEL, and the C1 controls (U+0080-U+009F, which some terminals
// read as ESC sequences: U+009B is CSI). A carriage return is one of them: it lets a line overwrite
// what was printed before it. The bidirectional marks and overrides too: they make a file name
// read as another (the list beyond ASCII is base/printable's, shared).
const CONTROL = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${UNSAFE_BEYOND_ASCII}]`, 'g');

/**
 * Text a terminal shows as text. What the CLI prints comes from places it does not control (the
 * model's answer, a denied command, a repository's file names), and an escape sequence in it
 * would act on the user's terminal: recolour it, retitle it, or write the clipboard (OSC 52). Each
 * control character becomes the six characters `\u001b`; a CRLF line ending becomes `\n`.
 *
 * The same spelling is a JSON string escape of the same character, so JSON output stays valid
 * and means the same: `JSON.stringify` escapes C0 itself, and what it leaves raw (DEL, C1, the
 * bidirectional controls) can occur only inside its strings.
 */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The one way out of the CLI: everything written to `sink` passes through terminalSafe. */
export function terminalSafeIo(sink: CliIo): CliIo {
  return { out: (t) => sink.out(terminalSafe(t)), err: (t) => sink.err(terminalSafe(t)) };
}

export const stdio: CliIo = terminalSafeIo({ out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });

/** Whether a person can answer a question: stdin and stderr are both a terminal. */
export function interactiveTerminal(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

/**
 * A yes/no question on the terminal. The question is output like any other (it names a folder,
 * whose name the repository chose), so it goes through stdio; end of input or a stop answers no.
 */
export function askYesNo(question: string, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    stdio.err(question);
    const rl = createInterface({ input: process.stdin, terminal: false });
    let answered = false;
    const done = (yes: boolean) => {
      if (answered) return;
      answered = true;
      signal.removeEventListener('abort', onAbort);
      rl.close();
      resolve(yes);
    };
    const onAbort = () => done(false);
    signal.addEventListener('abort', onAbort, { once: true });
    rl.once('line', (answer) => done(/^\s*y(es)?\s*$/i.test(answer)));
    rl.once('close', () => done(false));
  });
}
