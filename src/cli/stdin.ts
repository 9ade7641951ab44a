import { StringDecoder } from 'node:string_decoder';
import { MAX_PROMPT_CHARS } from '../shared/protocol';

/**
 * What standard input gave the CLI: nothing to read (a terminal, or no input at all), the text
 * up to its end, nothing within the wait (an open pipe nobody writes to), or more than a prompt
 * may hold.
 */
export type StdinRead = { kind: 'none' } | { kind: 'text'; text: string } | { kind: 'silent' } | { kind: 'tooLong' } | { kind: 'failed'; message: string };

/** How long an open pipe may stay silent before the CLI goes on without it (the reference waits as long). */
const STDIN_WAIT_MS = 3000;

export interface StdinSource {
  isTTY?: boolean;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  removeAllListeners(): unknown;
  destroy(): unknown;
}

/**
 * Reads piped input as `cat file | threadline -p "explain"` gives it. Once the first bytes
 * arrive the rest is read to the end however long it takes; a pipe with nothing in it for
 * `waitMs` is let go, so a script that leaves stdin open does not hang the run.
 */
export function readStdin(stream: StdinSource | undefined, opts: { waitMs?: number; maxChars?: number } = {}): Promise<StdinRead> {
  if (!stream || stream.isTTY) return Promise.resolve({ kind: 'none' });
  const waitMs = opts.waitMs ?? STDIN_WAIT_MS;
  const maxChars = opts.maxChars ?? MAX_PROMPT_CHARS;
  return new Promise((resolve) => {
    const decoder = new StringDecoder('utf8');
    let text = '';
    let settled = false;
    const finish = (result: StdinRead) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeAllListeners();
      // Let go of the handle, or an open pipe would keep the process alive after the answer.
      if (result.kind !== 'text') stream.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ kind: 'silent' }), waitMs);
    stream.on('data', (chunk) => {
      clearTimeout(timer);
      text += typeof chunk === 'string' ? chunk : decoder.write(chunk);
      // Characters, as the panel counts a prompt; UTF-8 never takes fewer bytes than characters.
      if (text.length > maxChars) finish({ kind: 'tooLong' });
    });
    stream.on('end', () => finish({ kind: 'text', text: text + decoder.end() }));
    stream.on('error', (err) => finish({ kind: 'failed', message: err.message }));
  });
}

export type PromptFromInput = { ok: true; prompt: string; warning?: string } | { ok: false; error: string };

/**
 * The prompt a run answers: the one given, then a newline and what was piped in, as the
 * reference joins them; or what was piped in alone when no prompt was given.
 */
export function promptWithStdin(given: string | undefined, input: StdinRead, maxChars = MAX_PROMPT_CHARS): PromptFromInput {
  const piped = input.kind === 'text' && input.text.trim() ? input.text : undefined;
  if (input.kind === 'tooLong') return { ok: false, error: `the input on stdin is over ${maxChars} characters, more than a prompt may hold` };
  if (input.kind === 'failed') return { ok: false, error: `could not read stdin: ${input.message}` };
  const warning = input.kind === 'silent' ? `nothing arrived on stdin within ${STDIN_WAIT_MS / 1000} s, so the run goes on without it (redirect stdin from /dev/null to skip the wait)` : undefined;
  if (given === undefined) {
    if (piped === undefined) return { ok: false, error: input.kind === 'silent' ? `no prompt: give it after -p or pipe it on stdin (${warning})` : 'no prompt: give it after -p or pipe it on stdin' };
    return { ok: true, prompt: piped };
  }
  const prompt = piped === undefined ? given : `${given}\n${piped}`;
  if (prompt.length > maxChars) return { ok: false, error: `the prompt with the input from stdin is over ${maxChars} characters, more than a prompt may hold` };
  return { ok: true, prompt, ...(warning ? { warning } : {}) };
}
