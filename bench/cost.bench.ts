// Issue 15's cost benchmark: the three scripted sessions played by the real Threadline CLI
// (chat prompts with --continue, session notes and memory extraction on) against the
// stand-in's prompt-cache simulation, beside a no-strategy baseline measured in the same run,
// the brute-force floor for the three-latest-reads rule and the reference CLI's stored figures.
// `npm run bench -- cost` runs the full sessions (a few minutes); `costQuick` the CI subset.
import { backgroundKinds } from './cost/accounting';
import { measure } from './cost/measure';
import { agentTable, describe, failures, flatten, loadReference, REFERENCE_AGENT, sessionKey, type SessionOutcome } from './cost/report';
import { buildSession, type SessionName, type Variant } from './cost/session';
import { threadlineBaseline, threadlineCli } from './cost/threadline';
import { BenchCheckFailed } from './checks';

const SESSIONS: readonly SessionName[] = ['newFiles', 'workingSet', 'chat'];

async function runVariant(variant: Variant): Promise<{ figures: Record<string, number>; failed: string[] }> {
  const reference = loadReference();
  const figures: Record<string, number> = {};
  const failed: string[] = [];
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
    const ref = reference?.agents[REFERENCE_AGENT]?.sessions[sessionKey(variant, name)];
    const outcome: SessionOutcome = { variant, name, threadline: run.figures, baseline: base.figures, kinds: backgroundKinds(run.ledger.requests), ...(ref ? { reference: ref } : {}) };
    console.log(`\n${describe(outcome, session.title)}`);
    Object.assign(figures, flatten(outcome));
    failed.push(...failures(outcome));
    if (!base.figures.completed) failed.push(`${sessionKey(variant, name)}: the baseline run did not finish, so its ratio means nothing`);
  }
  if (reference) {
    console.log(`\nStored figures (${reference.measuredAt}, ${reference.model}, ${reference.window / 1000}k window), ratio of billed tokens to ${reference.agents[REFERENCE_AGENT]?.label ?? 'the reference'}:`);
    console.log(agentTable(reference, variant, SESSIONS, titles));
  }
  return { figures, failed };
}

async function bench(variant: Variant): Promise<Record<string, number>> {
  const { figures, failed } = await runVariant(variant);
  if (failed.length) throw new BenchCheckFailed(figures, failed);
  return figures;
}

/** The three full sessions of issue 15 (60 reads of ~8k-token files each). */
export const benchCost = (): Promise<Record<string, number>> => bench('full');

/**
 * The CI subset: 16 reads of ~4k-token files per loop and a 4-prompt chat, under 20 s. Its
 * figures are deterministic for a given build (the script and the cache rules are), so the
 * ratio to the same-run baseline moves only when the product does.
 */
export const benchCostQuick = (): Promise<Record<string, number>> => bench('quick');

