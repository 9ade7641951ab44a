// Records the Claude Code transcripts in test/fixtures/claude-code/ with the reference CLI itself,
// so the importer is tested on what Claude Code really writes, not on our idea of it. Each scenario
// runs `claude -p` (and `-c -p`, `/compact`, `--resume … --resume-session-at …`) in a fresh HOME
// and workspace against the Messages API stand-in, whose scripted replies make the content fixed.
// Then the transcript is resumed once more by the reference on a copy, and what it sent is kept as
// `<name>.expected.json`: the messages Claude Code itself resumes with, the importer's oracle.
//
//   node scripts/makeClaudeFixtures.mjs [--claude BIN] [--only NAME]
//
// Without --claude (or CLAUDE_BIN) the CLI is installed from npm into ~/.cache/threadline (see
// referenceCli.mjs; CLAUDE_CODE_VERSION picks a version). Machine paths are scrubbed: the
// workspace becomes {{CWD}}, the home folder {{HOME}} and the transcript folder's name
// {{PROJECT_KEY}}; tests put their own paths back.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ROOT } from './codeServer.mjs';
import { claudeEnv, claudeVersion, ensureClaude, run } from './referenceCli.mjs';
import { startStandinProcess } from '../test/e2e/standinProcess.mjs';

const OUT = join(ROOT, 'test', 'fixtures', 'claude-code');
const RESUME_PROMPT = 'Resume check';
// Makes the reference compact on its own: the smallest window it accepts, 10% of it.
const AUTO_COMPACT_ENV = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '100000', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '10' };

const text = (t) => ({ type: 'text', text: t });
const say = (t, when) => ({ ...(when ? { when } : {}), content: [text(t)] });
const SUMMARY = (body) => ({
  when: 'detailed summary',
  repeat: true,
  content: [text(`<analysis>\nThe conversation so far.\n</analysis>\n\n<summary>\n${body}\n</summary>`)],
});

const logLines = Array.from({ length: 400 }, (_, i) => `2026-01-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} worker-${i % 7} processed batch ${i}`).join('\n');

/** Each scenario: files of the workspace, then steps, each a `claude` run with its scripted replies. */
const SCENARIOS = [
  {
    name: 'plain',
    description: 'two prompts answered in text, the second with --continue',
    steps: [
      { args: ['-p', 'Name three primary colours.'], turns: [say('Red, yellow and blue.')] },
      { args: ['-c', '-p', 'And the secondary ones?'], turns: [say('Green, orange and purple.')] },
    ],
  },
  {
    name: 'tools',
    description: 'thinking, two parallel Reads (their results hang off different lines), a Bash call, then a second prompt',
    files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' },
    steps: [
      {
        args: ['-p', 'Read a.txt and b.txt, then list the folder.', '--allowedTools', 'Read', 'Bash(ls:*)'],
        turns: ({ cwd }) => [
          {
            when: 'list the folder',
            content: [
              { type: 'thinking', thinking: 'Two files to read; both reads can go at once.' },
              text('Reading both files.'),
              { type: 'tool_use', name: 'Read', input: { file_path: join(cwd, 'a.txt') } },
              { type: 'tool_use', name: 'Read', input: { file_path: join(cwd, 'b.txt') } },
            ],
          },
          { when: 'beta', content: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls', description: 'List the folder' } }] },
          say('a.txt says alpha, b.txt says beta; the folder holds just those two files.', 'b.txt'),
        ],
      },
      { args: ['-c', '-p', 'Thanks.'], turns: [say('You are welcome.')] },
    ],
  },
  {
    name: 'compact-manual',
    description: 'a Read, then /compact in a -p --continue run, then a prompt after the compaction',
    files: { 'notes.md': '# Tasks\n\n1. Write the tests.\n2. Fix the parser.\n3. Update the README.\n' },
    steps: [
      {
        args: ['-p', 'What does notes.md say?', '--allowedTools', 'Read'],
        turns: ({ cwd }) => [
          { when: 'notes.md say', content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(cwd, 'notes.md') } }] },
          say('It lists three tasks: tests, the parser and the README.', 'Write the tests'),
        ],
      },
      { args: ['-c', '-p', '/compact'], turns: [SUMMARY('1. Primary Request and Intent: the user asked what notes.md says.\n2. Key facts: it lists three tasks (write the tests, fix the parser, update the README).')] },
      { args: ['-c', '-p', 'Which task comes first?'], turns: [say('Writing the tests comes first.')] },
    ],
  },
  {
    name: 'compact-auto',
    description: 'the reference compacts by itself in the middle of a tool loop (small auto-compact window); recent messages are kept after the summary',
    files: { 'log.txt': `${logLines}\n` },
    steps: [
      {
        args: ['-p', 'How many lines does log.txt have?', '--allowedTools', 'Read'],
        turns: ({ cwd }) => [
          { when: 'How many lines', content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(cwd, 'log.txt') } }] },
          say('log.txt has 400 lines.', 'processed batch 399'),
        ],
      },
      {
        args: ['-c', '-p', 'Show me lines 10 to 14 of log.txt.', '--allowedTools', 'Read'],
        env: AUTO_COMPACT_ENV,
        turns: ({ cwd }) => [
          SUMMARY('1. Primary Request and Intent: the user is inspecting log.txt (400 lines of worker batches).\n2. Pending: show lines 10 to 14.'),
          { when: 'lines 10 to 14', content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(cwd, 'log.txt'), offset: 10, limit: 5 } }] },
          say('Lines 10 to 14 are batches 9 to 13.', 'processed batch 13'),
        ],
      },
      { args: ['-c', '-p', 'Which worker handled batch 9?'], turns: [say('worker-2 handled batch 9.')] },
    ],
    check: (lines) => {
      const boundaries = lines.filter((l) => l.type === 'system' && l.subtype === 'compact_boundary');
      if (!boundaries.length) throw new Error('the reference did not compact; raise the log or lower the window');
      if (!boundaries.some((b) => b.compactMetadata?.preservedMessages || b.compactMetadata?.preservedSegment)) throw new Error('no boundary kept messages after its summary');
    },
  },
  {
    name: 'rewind',
    description: 'a branch: the session is resumed at its first answer (--resume-session-at, the SDK\'s rewind) and continues differently; the abandoned answer stays in the file',
    steps: [
      { args: ['-p', 'Pick a number between one and ten.'], turns: [say('Seven.')] },
      { args: ['-c', '-p', 'Double it.'], turns: [say('Fourteen.')] },
      {
        args: ({ sessionId, lines }) => {
          const first = lines.find((l) => l.type === 'assistant' && JSON.stringify(l.message?.content).includes('Seven.'));
          return ['--resume', sessionId, '--resume-session-at', first.uuid, '-p', 'Halve it instead.'];
        },
        turns: [say('Three and a half.')],
      },
    ],
    check: (lines) => {
      const parents = lines.filter((l) => l.uuid).map((l) => l.parentUuid);
      if (new Set(parents).size === parents.length) throw new Error('no branch: every line has its own parent');
    },
  },
];

function parseArgv(argv) {
  const out = { claude: undefined, only: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--claude') out.claude = argv[++i];
    else if (argv[i] === '--only') out.only.push(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return out;
}

const readLines = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

function transcriptOf(home) {
  const projects = join(home, '.claude', 'projects');
  const dirs = readdirSync(projects);
  if (dirs.length !== 1) throw new Error(`expected one project folder, found ${dirs.join(', ')}`);
  const files = readdirSync(join(projects, dirs[0])).filter((f) => f.endsWith('.jsonl'));
  if (files.length !== 1) throw new Error(`expected one transcript, found ${files.join(', ')}`);
  return { file: join(projects, dirs[0], files[0]), key: dirs[0], sessionId: basename(files[0], '.jsonl') };
}

/** What a request carried, without what changes from run to run (reminders, tool lists, system role). */
function projectRequest(body) {
  const out = [];
  for (const m of body.messages ?? []) {
    if (m.role === 'system') continue;
    const blocks = typeof m.content === 'string' ? [text(m.content)] : m.content;
    const kept = [];
    for (const b of blocks) {
      if (b.type === 'text') {
        if (m.role === 'user' && b.text.trimStart().startsWith('<')) continue;
        kept.push({ type: 'text', text: b.text.trim() });
      } else if (b.type === 'tool_use') kept.push({ type: 'tool_use', id: b.id, name: b.name });
      else if (b.type === 'tool_result') kept.push({ type: 'tool_result', tool_use_id: b.tool_use_id });
      else if (b.type === 'thinking') kept.push({ type: 'thinking', signature: b.signature });
      else kept.push({ type: b.type });
    }
    if (kept.length) out.push({ role: m.role, content: kept });
  }
  return out;
}

async function record(scenario, claude, standin) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `tl-ccfx-${scenario.name}-`)));
  const home = join(root, 'home');
  const cwd = join(root, 'ws');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  for (const [name, content] of Object.entries(scenario.files ?? {})) writeFileSync(join(cwd, name), content);
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd });
  const ctx = () => {
    let t;
    try {
      t = transcriptOf(home);
    } catch {
      return { cwd, home };
    }
    return { cwd, home, sessionId: t.sessionId, lines: readLines(t.file) };
  };
  for (const [i, step] of scenario.steps.entries()) {
    const c = ctx();
    const args = typeof step.args === 'function' ? step.args(c) : step.args;
    const turns = typeof step.turns === 'function' ? step.turns(c) : step.turns;
    await standin.reset();
    await standin.enqueue(turns);
    const r = await run(claude, args, { cwd, env: claudeEnv({ home, baseUrl: standin.url, extra: step.env ?? {} }) });
    const bad = (await standin.requests()).filter((q) => q.validationError);
    if (r.code !== 0 || bad.length) throw new Error(`${scenario.name} step ${i + 1} (${args.join(' ')}): exit ${r.code}\n${r.stderr}\n${bad.map((q) => q.validationError).join('\n')}`);
  }
  const t = transcriptOf(home);
  const lines = readLines(t.file);
  scenario.check?.(lines);

  // The oracle: the reference resumes a copy, and what it sends is what an import should hold.
  const copy = join(root, 'home-resume');
  cpSync(home, copy, { recursive: true });
  await standin.reset();
  await standin.enqueue([say('Resumed.')]);
  const r = await run(claude, ['--resume', t.sessionId, '-p', RESUME_PROMPT], { cwd, env: claudeEnv({ home: copy, baseUrl: standin.url }) });
  const requests = await standin.requests();
  const main = requests.find((q) => JSON.stringify(q.body?.messages ?? []).includes(RESUME_PROMPT));
  if (r.code !== 0 || !main) throw new Error(`${scenario.name}: the reference could not resume its own transcript: ${r.stderr}`);

  const scrub = (s) => s.replaceAll(copy, '{{HOME}}').replaceAll(home, '{{HOME}}').replaceAll(cwd, '{{CWD}}').replaceAll(t.key, '{{PROJECT_KEY}}');
  writeFileSync(join(OUT, `${scenario.name}.jsonl`), scrub(readFileSync(t.file, 'utf8')));
  const expected = { description: scenario.description, claudeCode: claudeVersion(claude), sessionId: t.sessionId, resumePrompt: RESUME_PROMPT, resumeRequest: projectRequest(main.body) };
  writeFileSync(join(OUT, `${scenario.name}.expected.json`), `${scrub(JSON.stringify(expected, null, 2))}\n`);
  rmSync(root, { recursive: true, force: true });
  return lines.length;
}

async function main() {
  const opts = parseArgv(process.argv.slice(2));
  const claude = ensureClaude({ bin: opts.claude });
  console.log(`Claude Code ${claudeVersion(claude)} (${claude})`);
  mkdirSync(OUT, { recursive: true });
  const standin = await startStandinProcess();
  try {
    for (const s of SCENARIOS.filter((x) => !opts.only.length || opts.only.includes(x.name))) {
      const n = await record(s, claude, standin);
      console.log(`${s.name}: ${n} lines`);
    }
  } finally {
    await standin.stop();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
