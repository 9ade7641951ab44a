// What stored cost figures were measured against: a hash of the session scripts (the files and
// prompts every agent is played, the player that answers for the model, and the billing) and one
// of the stand-in (its token counts and cache rules decide every usage figure). A stored
// figure whose hashes differ from today's was measured on another bench: comparing with it
// would judge the product against a number the bench no longer produces.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { buildSession, type SessionName, type Variant } from './session';

export interface Fingerprint {
  sessions: string;
  standin: string;
}

const root = join(__dirname, '..', '..');
const SESSIONS: readonly SessionName[] = ['newFiles', 'workingSet', 'chat'];
const VARIANTS: readonly Variant[] = ['full', 'quick'];
/** Sources that decide what a played session bills, beside the script's own data. */
const PLAY_SOURCES = ['bench/cost/player.ts', 'bench/cost/accounting.ts'];
const STANDIN_DIR = 'test/standin';

/**
 * A source file as code, without its comments and layout: rewording a comment changes no
 * figure, and must not send anyone to measure the reference again.
 */
const codeOf = (file: string) => transformSync(readFileSync(file, 'utf8'), { loader: 'ts', minifyWhitespace: true }).code;

const digest = (parts: readonly string[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(`${p.length}:`).update(p);
  return h.digest('hex').slice(0, 16);
};

/** Today's hashes, from the working tree. */
export function currentFingerprint(base = root): Fingerprint {
  const scripts = VARIANTS.flatMap((v) =>
    SESSIONS.map((n) => {
      const s = buildSession(n, v);
      return JSON.stringify({ name: s.name, variant: s.variant, files: [...s.files.values()].map((f) => [f.path, f.text]), prompts: s.prompts });
    }),
  );
  const play = PLAY_SOURCES.map((p) => `${p}\n${codeOf(join(base, p))}`);
  const standinFiles = readdirSync(join(base, STANDIN_DIR))
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const standin = standinFiles.map((f) => `${f}\n${codeOf(join(base, STANDIN_DIR, f))}`);
  return { sessions: digest([...scripts, ...play]), standin: digest(standin) };
}

/** What differs between the hashes a figure was measured with and today's, in words; undefined when none. */
export function staleness(stored: Partial<Fingerprint> | undefined, now: Fingerprint): string | undefined {
  if (!stored?.sessions || !stored.standin) return 'they carry no hash of the session scripts and the stand-in they were measured with';
  const changed = [stored.sessions !== now.sessions ? `the session scripts (${stored.sessions} then, ${now.sessions} now)` : '', stored.standin !== now.standin ? `the stand-in (${stored.standin} then, ${now.standin} now)` : ''].filter(Boolean);
  return changed.length ? `${changed.join(' and ')} changed since they were measured` : undefined;
}
