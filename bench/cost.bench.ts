// Issue 15's cost benchmark: the three scripted sessions played by the real Threadline CLI
// (chat prompts with --continue, session notes and memory extraction on) against the
// stand-in's prompt-cache simulation, beside a no-strategy baseline measured in the same run,
// the brute-force floor for the three-latest-reads rule and the reference CLI's stored figures.
// `npm run bench -- cost` runs the full sessions (a few minutes), `npm run bench -- --quick cost`
// the CI subset; bench/targets.ts holds the targets. Reference figures that are missing or were
// measured on other session scripts or another stand-in (bench/cost/fingerprint.ts) fail the suite.
import { backgroundKinds } from './cost/accounting';
import { measure } from './cost/measure';
import { currentFingerprint } from './cost/fingerprint';
import { agentTable, describe, flatten, loadReference, REFERENCE_AGENT, referenceProblem, sessionKey, type SessionOutcome } from './cost/report';
import { buildSession, type SessionName, type Variant } from './cost/session';
import { threadlineBaseline, threadlineCli } from './cost/threadline';

const SESSIONS: readonly SessionName[] = ['newFiles', 'workingSet', 'chat'];

async function runVariant(variant: Variant): Promise<Record<string, number>> {
  const reference = loadReference();
  const now = currentFingerprint();
  // Without figures of the reference measured on today's bench the targets cannot be judged:
  // that fails the suite before the sessions are played.
  const problem = referenceProblem(reference, variant, SESSIONS, now);
  if (problem || !reference) throw new Error(problem);
  const refAgent = reference.agents[REFERENCE_AGENT]!;
  const figures: Record<string, number> = {};
  const titles = {} as Record<SessionName, string>;
  console.log(`\nBilled tokens = uncached + 1.25 × cache written + 0.1 × cache read + 5 × output, in Sonnet input-token equivalents (a cheaper model's request counts at its price).`);
  // The sessions run side by side, each against its own stand-in: nothing in them depends on
  // another's timing (the cache lifetime is minutes, a session seconds).
  const runs = await Promise.all(
    SESSIONS.map(async (name) => {
      const session = buildSession(name, variant);
      const run = await measure(session, threadlineCli);
      const base = await measure(session, threadlineBaseline);
      return { name, session, run, base };
    }),
  );
  for (const { name, session, run, base } of runs) {
    titles[name] = session.title;
    for (const note of [...run.notes, ...base.notes]) console.log(`  note: ${note}`);
    const ref = refAgent.sessions[sessionKey(variant, name)]!;
    const outcome: SessionOutcome = { variant, name, threadline: run.figures, baseline: base.figures, kinds: backgroundKinds(run.ledger.requests), reference: ref };
    console.log(`\n${describe(outcome, session.title)}`);
    Object.assign(figures, flatten(outcome));
    figures[`${name}.baselineCompleted`] = base.figures.completed;
  }
  console.log(`\nStored figures (${reference.measuredAt}, ${reference.model}, ${reference.window / 1000}k window), ratio of billed tokens to ${refAgent.label} ${refAgent.version}:`);
  console.log(agentTable(reference, variant, SESSIONS, titles, now));
  return figures;
}

/**
 * The three cost sessions (60 reads of ~8k-token files each), or with `quick` the CI
 * subset: 16 reads of ~4k-token files per loop and a 4-prompt chat. The quick figures are
 * deterministic for a given build (the script and the cache rules are), so their ratio to the
 * same-run baseline moves only when the product does.
 */
export function benchCost(opts: { quick: boolean }): Promise<Record<string, number>> {
  return runVariant(opts.quick ? 'quick' : 'full');
}
