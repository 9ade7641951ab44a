// The Claude Code transcripts recorded by scripts/makeClaudeFixtures.mjs, put where Claude Code
// keeps them for a given workspace, with the scrubbed paths filled back in.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeProjectDir } from '../../src/sessions/claudeCode';

export const FIXTURE_DIR = join(import.meta.dirname, '..', 'fixtures', 'claude-code');
export const FIXTURES = ['plain', 'tools', 'compact-manual', 'compact-auto', 'rewind'] as const;
export type FixtureName = (typeof FIXTURES)[number];

/** What the reference CLI sent when it resumed the transcript itself (see the script). */
export interface Expected {
  description: string;
  claudeCode: string;
  sessionId: string;
  resumePrompt: string;
  resumeRequest: Array<{ role: 'user' | 'assistant'; content: Array<Record<string, unknown>> }>;
}

export interface Placed {
  home: string;
  cwd: string;
  file: string;
  sessionId: string;
  expected: Expected;
}

export function workspace(): { home: string; cwd: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-ccfx-')));
  const home = join(root, 'home');
  const cwd = join(root, 'ws');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { home, cwd };
}

export function fill(text: string, home: string, cwd: string): string {
  const key = claudeProjectDir(cwd, { HOME: home }).split('/').at(-1)!;
  return text.replaceAll('{{HOME}}', home).replaceAll('{{CWD}}', cwd).replaceAll('{{PROJECT_KEY}}', key);
}

/** Copies a fixture into `home`'s Claude Code folder for `cwd` (fresh ones by default). */
export function placeFixture(name: FixtureName, where: { home: string; cwd: string } = workspace()): Placed {
  const { home, cwd } = where;
  const expected = JSON.parse(fill(readFileSync(join(FIXTURE_DIR, `${name}.expected.json`), 'utf8'), home, cwd)) as Expected;
  const dir = claudeProjectDir(cwd, { HOME: home });
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${expected.sessionId}.jsonl`);
  writeFileSync(file, fill(readFileSync(join(FIXTURE_DIR, `${name}.jsonl`), 'utf8'), home, cwd));
  return { home, cwd, file, sessionId: expected.sessionId, expected };
}
