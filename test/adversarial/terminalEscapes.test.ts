// Terminal escape sequences from text the CLI does not control (the model's answer, a denied
// command, a repository's file names) must not reach the user's terminal as escapes: OSC 52
// writes the clipboard, CSI recolours or moves the cursor, a carriage return overwrites a line.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../src/cli/cli';
import { terminalSafe } from '../../src/cli/io';
import { useStandin } from '../support/useStandin';

const standin = useStandin();
const stateDir = mkdtempSync(join(tmpdir(), 'tl-esc-state-'));

/** OSC 52 (set the clipboard), a CSI colour, an 8-bit CSI, a bell, a carriage return, DEL. */
const HOSTILE: Array<[string, string]> = [
  ['OSC 52', '\u001b]52;c;cm0gLXJmIH4=\u0007'],
  ['CSI colour', '\u001b[31mred\u001b[0m'],
  ['8-bit CSI', '\u009b2J'],
  ['OSC title ended by ST', '\u001b]0;title\u001b\\'],
  ['carriage return', 'over\rwrite'],
  ['DEL', 'x\u007fy'],
  ['right-to-left override', 'txt.\u202eexe'],
  ['Arabic letter mark', 'a\u061cb'],
  ['line separator', 'one\u2028two'],
  ['paragraph separator', 'one\u2029two'],
];

/** Any control character a terminal acts on: all but tab and newline. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

async function cli(argv: string[], cwd: string) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0', HOME: cwd },
    cwd,
  });
  return { code, out, err };
}

const workspace = () => mkdtempSync(join(tmpdir(), 'tl-esc-'));

describe('terminal escapes in human-readable CLI output', () => {
  for (const [name, seq] of HOSTILE) {
    it(`the model's final answer (text format) holds ${name}`, async () => {
      standin.enqueue({ content: [{ type: 'text', text: `Done. ${seq} The end.` }] });
      const r = await cli(['-p', 'hi'], workspace());
      assert.equal(r.code, 0, r.err);
      assert.doesNotMatch(r.out, RAW_CONTROL, JSON.stringify(r.out));
      assert.match(r.out, /Done\. .* The end\.\n$/);
    });
  }

  it("a denied command's text on stderr", async () => {
    for (const [, seq] of HOSTILE) {
      standin.reset();
      standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command: `echo '${seq}'` } }] }, { content: [{ type: 'text', text: 'ok' }] });
      const r = await cli(['-p', 'run it'], workspace());
      assert.match(r.err, /denied Bash/);
      assert.doesNotMatch(r.err, RAW_CONTROL, JSON.stringify(r.err));
    }
  });

  it('repository file names in `threadline context`', async () => {
    const cwd = workspace();
    const rules = join(cwd, '.claude', 'rules');
    mkdirSync(rules, { recursive: true });
    for (const [i, [, seq]] of HOSTILE.entries()) writeFileSync(join(rules, `r${i}${seq.replace(/\//g, '')}.md`), 'A rule.\n');
    writeFileSync(join(cwd, 'CLAUDE.md'), 'Project notes.\n');
    assert.equal(readdirSync(rules).length, HOSTILE.length, 'the file system took the names');
    const r = await cli(['context'], cwd);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /r0/, 'the rule files are listed');
    assert.doesNotMatch(r.out, RAW_CONTROL, JSON.stringify(r.out));
    assert.doesNotMatch(r.err, RAW_CONTROL, JSON.stringify(r.err));
  });

  it('JSON output stays valid JSON and keeps the exact text', async () => {
    const text = `answer ${HOSTILE.map(([, seq]) => seq).join(' ')}`;
    for (const format of ['json', 'stream-json']) {
      standin.reset();
      standin.enqueue({ content: [{ type: 'text', text }] });
      const r = await cli(['-p', 'hi', '--output-format', format], workspace());
      assert.equal(r.code, 0, r.err);
      assert.doesNotMatch(r.out, RAW_CONTROL, JSON.stringify(r.out));
      const lines = r.out.trim().split('\n');
      const result = JSON.parse(lines.at(-1)!) as { result: string };
      assert.equal(result.result, text, `${format}: the value survives`);
    }
  });

  it('the neutralised form is visible and CRLF line endings read as lines', () => {
    assert.equal(terminalSafe('a\u001b[31mb\r\nc\td\n'), 'a\\u001b[31mb\nc\td\n');
    assert.equal(terminalSafe('\u009b'), '\\u009b');
  });

  it('no CLI module writes to the terminal except through the io layer', () => {
    const dir = join(__dirname, '../../src/cli');
    const offenders = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && f !== 'io.ts')
      .filter((f) => /process\.(stdout|stderr)\b|console\.\w+\(/.test(readFileSync(join(dir, f), 'utf8')));
    assert.deepEqual(offenders, []);
  });
});
