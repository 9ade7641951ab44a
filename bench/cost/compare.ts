// Plays the cost sessions to the reference Claude Code CLI and to the peers' CLIs (Cline,
// Kilo, Continue) against the same stand-in, beside Threadline's own CLI, and prints the issue's
// table. `--write` stores the figures in bench/reference-costs.json, which `npm run bench`
// reads for its ratios. Run through scripts/compareCost.mjs; see its header for the options.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { claudeCode } from './agents/claudeCode';
import { cline } from './agents/cline';
import { continueCli } from './agents/continueCli';
import { kilo } from './agents/kilo';
import { backgroundKinds } from './accounting';
import { currentFingerprint, staleness } from './fingerprint';
import { CannotPlay, measure, MODEL, WINDOW, type Play } from './measure';
import { agentTable, loadReference, REFERENCE_AGENT, REFERENCE_FILE, sessionKey, stored, type AgentFigures, type ReferenceFile } from './report';
import { buildSession, type SessionName, type Variant } from './session';
import { cleanEnv } from './process';
import { threadlineCli } from './threadline';

interface AgentSpec {
  id: string;
  label: string;
  /** npm package (pinned where a later release is known not to run here). */
  pkg?: string;
  bin?: string;
  make(bin: string): Play;
}

const AGENTS: AgentSpec[] = [
  { id: REFERENCE_AGENT, label: 'Claude Code', pkg: '@anthropic-ai/claude-code', bin: 'claude', make: claudeCode },
  { id: 'threadline', label: 'Threadline', make: () => threadlineCli },
  { id: 'cline', label: 'Cline', pkg: 'cline@3.0.65', bin: 'cline', make: cline },
  // 7.8.1's platform package is missing from the registry.
  { id: 'kilo', label: 'Kilo', pkg: '@kilocode/cli@7.7.7', bin: 'kilo', make: kilo },
  { id: 'continue', label: 'Continue', pkg: '@continuedev/cli@1.5.47', bin: 'cn', make: continueCli },
];

const SESSIONS: SessionName[] = ['newFiles', 'workingSet', 'chat'];
const root = resolve(__dirname, '..', '..');

interface Args {
  bins: Map<string, string>;
  install?: string;
  variants: Variant[];
  only: SessionName[];
  agents: string[];
  write: boolean;
}

function parseArgs(argv: string[]): Args {
  const out: Args = { bins: new Map(), variants: ['full', 'quick'], only: SESSIONS, agents: AGENTS.map((a) => a.id), write: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const agent = AGENTS.find((x) => a === `--${x.id}` || (x.id === REFERENCE_AGENT && a === '--claude'));
    if (agent) out.bins.set(agent.id, resolve(value()));
    else if (a === '--install') out.install = resolve(value());
    else if (a === '--variant') {
      const v = value();
      if (v !== 'full' && v !== 'quick' && v !== 'all') throw new Error(`--variant takes full, quick or all, not ${v}`);
      out.variants = v === 'all' ? ['full', 'quick'] : [v];
    } else if (a === '--only') {
      const names = value().split(',');
      const bad = names.filter((n) => !SESSIONS.includes(n as SessionName));
      if (bad.length) throw new Error(`unknown session ${bad.join(', ')}; there are ${SESSIONS.join(', ')}`);
      out.only = names as SessionName[];
    } else if (a === '--agents') {
      const ids = value().split(',');
      const bad = ids.filter((id) => !AGENTS.some((x) => x.id === id));
      if (bad.length) throw new Error(`unknown agent ${bad.join(', ')}; there are ${AGENTS.map((x) => x.id).join(', ')}`);
      out.agents = ids;
    } else if (a === '--write') out.write = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return out;
}

/** Installs an agent's CLI from npm into its own folder, as the other reference scripts do. */
function install(dir: string, agent: AgentSpec): string {
  const folder = join(dir, agent.id);
  const bin = join(folder, 'node_modules', '.bin', agent.bin!);
  if (existsSync(bin)) return bin;
  mkdirSync(folder, { recursive: true });
  if (!existsSync(join(folder, 'package.json'))) writeFileSync(join(folder, 'package.json'), '{"private":true}\n');
  console.error(`installing ${agent.pkg} into ${folder} …`);
  const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--dangerously-allow-all-scripts', agent.pkg!], { cwd: folder, env: cleanEnv({}), stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0 || !existsSync(bin)) throw new Error(`could not install ${agent.pkg} (npm exit ${r.status})`);
  return bin;
}

function versionOf(agent: AgentSpec, bin: string | undefined): string {
  if (!bin) {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
    return `${pkg.version}${head ? ` (${head})` : ''}`;
  }
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', env: cleanEnv({ HOME: '/nonexistent' }), timeout: 60_000 });
  return /\d+\.\d+\.\d+/.exec(`${r.stdout}${r.stderr}`)?.[0] ?? 'unknown';
}

const k = (x: number) => `${(x / 1000).toFixed(0)}k`;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const file: ReferenceFile = loadReference() ?? {
    measuredAt: '',
    model: MODEL,
    window: WINDOW,
    formula: '',
    howMeasured: '',
    agents: {},
  };
  const now = currentFingerprint();
  for (const agent of AGENTS.filter((a) => args.agents.includes(a.id))) {
    let bin = args.bins.get(agent.id);
    if (!bin && agent.pkg && args.install) bin = install(args.install, agent);
    if (agent.pkg && !bin) {
      console.error(`skipping ${agent.label}: pass --${agent.id === REFERENCE_AGENT ? 'claude' : agent.id} BIN or --install DIR`);
      continue;
    }
    const version = versionOf(agent, bin);
    // Figures of another version, or measured on other scripts or another stand-in, are not kept beside new ones.
    const earlier = file.agents[agent.id];
    const entry: AgentFigures = earlier?.version === version && !staleness(earlier.inputs, now) ? earlier : { label: agent.label, version, inputs: now, sessions: {} };
    file.agents[agent.id] = entry;
    for (const variant of args.variants) {
      for (const name of args.only) {
        const session = buildSession(name, variant);
        let run;
        try {
          run = await measure(session, agent.make(bin ?? ''));
        } catch (err) {
          if (!(err instanceof CannotPlay)) throw err;
          console.log(`${agent.label} ${version} ${sessionKey(variant, name)}: not played: ${err.message}`);
          const { [sessionKey(variant, name)]: _dropped, ...rest } = entry.sessions;
          entry.sessions = rest;
          entry.unplayable = { ...entry.unplayable, [sessionKey(variant, name)]: err.message };
          continue;
        }
        const f = run.figures;
        entry.sessions[sessionKey(variant, name)] = stored(f, run.notes);
        if (entry.unplayable) {
          const { [sessionKey(variant, name)]: _played, ...still } = entry.unplayable;
          entry.unplayable = still;
        }
        console.log(
          `${agent.label} ${version} ${sessionKey(variant, name)}: billed ${k(f.billed)} (main ${k(f.billedMain)}, background ${k(f.billedBackground)}), requests ${f.requestsMain}+${f.requestsBackground}, background cache reads ${(f.backgroundReadShare * 100).toFixed(0)}%, peak ${k(f.peakPrompt)}, refused ${f.refusedTooLong}, three latest missing in ${f.verbatimMisses}/${f.mainChecked}, ${f.completed ? 'finished' : 'DID NOT FINISH'}, ${(run.wallMs / 1000).toFixed(0)} s${run.notes.length ? `\n  ${run.notes.join('\n  ')}` : ''}`,
        );
        for (const g of backgroundKinds(run.ledger.requests)) console.log(`  ${g.requests} × ${g.kind}: billed ${k(g.billed)}, ${(g.readShare * 100).toFixed(0)}% read from the cache`);
      }
    }
  }
  file.measuredAt = new Date().toISOString().slice(0, 10);
  file.model = MODEL;
  file.window = WINDOW;
  file.formula = 'billed = f × (uncached + 1.25 × cache written + 0.1 × cache read + 5 × output), f = the model\'s input price over claude-sonnet-4-6\'s';
  file.howMeasured = 'node scripts/compareCost.mjs: each agent\'s CLI plays the scripted sessions of bench/cost/session.ts against the stand-in (test/standin) with its prompt-cache simulation and a 200k window; background requests counted';
  const titles = {} as Record<SessionName, string>;
  for (const variant of args.variants) {
    for (const n of SESSIONS) titles[n] = buildSession(n, variant).title;
    console.log(`\n${variant} sessions, billed tokens as a ratio to ${file.agents[REFERENCE_AGENT]?.label ?? 'the reference'}:\n${agentTable(file, variant, SESSIONS, titles, now)}`);
  }
  if (args.write) {
    writeFileSync(REFERENCE_FILE, `${JSON.stringify(file, null, 2)}\n`);
    console.log(`\nwrote ${REFERENCE_FILE}`);
  }
}

main().catch((err: unknown) => {
  console.error(`compareCost: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
