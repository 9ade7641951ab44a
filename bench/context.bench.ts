import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextService } from '../src/context/contextService';
import { createStandinAgent } from '../test/support/standinAgent';
import { startStandin } from '../test/standin/server';
import { testHost } from '../test/support/host';
import { bashGitEnv } from '../src/tools/gitGuard';

/** A repository of 50,000 files in nested folders, with instruction files along one path. */
function bigRepo(): { root: string; cwd: string } {
  const root = mkdtempSync(join(tmpdir(), 'tl-bench-repo-'));
  let n = 0;
  for (let a = 0; a < 50; a++) {
    for (let b = 0; b < 20; b++) {
      const dir = join(root, `pkg${a}`, `mod${b}`);
      mkdirSync(dir, { recursive: true });
      for (let c = 0; c < 50; c++) writeFileSync(join(dir, `f${c}.ts`), `export const x${n++} = ${c};\n`);
    }
  }
  const cwd = join(root, 'pkg7', 'mod3');
  writeFileSync(join(root, 'CLAUDE.md'), '# Root rules\nUse TypeScript strict mode.\n@docs/style.md\n');
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'style.md'), 'Two-space indentation.\n');
  mkdirSync(join(root, '.claude', 'rules'), { recursive: true });
  writeFileSync(join(root, '.claude', 'rules', 'tests.md'), '---\npaths: ["**/*.test.ts"]\n---\nUse node:test.\n');
  writeFileSync(join(root, 'pkg7', 'CLAUDE.md'), 'Package 7 notes.\n');
  writeFileSync(join(cwd, 'CLAUDE.local.md'), 'My local notes.\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.name=b', '-c', 'user.email=b@b', 'add', '.');
  git('-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '-m', 'init');
  return { root, cwd };
}

export async function benchContext(): Promise<Record<string, number>> {
  const { root, cwd } = bigRepo();
  const home = mkdtempSync(join(tmpdir(), 'tl-bench-home-'));
  const probe = new ContextService({ cwd, home, host: testHost() });
  const ti = performance.now();
  await probe.reminders();
  const instructionsCold = performance.now() - ti;
  const tg = performance.now();
  await probe.systemSections();
  const gitCold = performance.now() - tg;
  const svc = new ContextService({ cwd, home, host: testHost() });
  const t0 = performance.now();
  await Promise.all([svc.reminders(), svc.systemSections()]);
  const cold = performance.now() - t0;
  const t1 = performance.now();
  for (let i = 0; i < 100; i++) await Promise.all([svc.reminders(), svc.systemSections()]);
  const warm = (performance.now() - t1) / 100;
  const files = (await svc.instructions()).files.length;
  // A new session in a running editor: modules loaded, nothing memoised.
  const sessionCold: number[] = [];
  for (let i = 0; i < 5; i++) {
    const fresh = new ContextService({ cwd, home, host: testHost() });
    const t = performance.now();
    await Promise.all([fresh.reminders(), fresh.systemSections()]);
    sessionCold.push(performance.now() - t);
  }
  sessionCold.sort((a, b) => a - b);

  // What every Bash call pays before it starts in this workspace: reading the repositories git
  // may reach (the folders above, and a walk of the tree for nested ones), with a spawn of `true`
  // measured alongside as the floor a command pays anyway.
  const guard: number[] = [];
  const spawnFloor: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const env = await bashGitEnv(root, process.env);
    guard.push(performance.now() - t);
    if ('refused' in env) throw new Error(`the bench repository was refused: ${env.refused}`);
    const s = performance.now();
    execFileSync('true');
    spawnFloor.push(performance.now() - s);
  }
  guard.sort((a, b) => a - b);
  spawnFloor.sort((a, b) => a - b);

  // Cache hits over a 20-turn scripted session: share of input tokens read from cache.
  const standin = await startStandin();
  try {
    const shares: number[] = [];
    const { agent } = createStandinAgent({
      url: standin.url,
      cwd,
      extra: {
        context: new ContextService({ cwd, home, host: testHost() }),
        loopEvents: {
          onTurnComplete: (turn) => {
            const u = turn.usage;
            const input = u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
            shares.push(input ? u.cacheReadInputTokens / input : 0);
          },
        },
      },
    });
    for (let i = 0; i < 20; i++) {
      // Every other turn reads a file, so tool results join the cached history too.
      if (i % 2) standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'f1.ts' } }] }, { content: [{ type: 'text', text: `Read it (${i}).` }] });
      else standin.enqueue({ content: [{ type: 'text', text: `Answer ${i}: ${'detail '.repeat(30)}` }] });
      await agent.submit(`Question ${i}: ${'context '.repeat(20)}`);
    }
    const later = shares.slice(1);
    return {
      instructionFiles: files,
      assemblyFirstInProcessMs: +cold.toFixed(1),
      assemblyNewSessionMedianMs: +sessionCold[2]!.toFixed(1),
      instructionsColdMs: +instructionsCold.toFixed(1),
      gitSnapshotColdMs: +gitCold.toFixed(1),
      bashGitGuardMedianMs: +guard[2]!.toFixed(1),
      bashSpawnFloorMedianMs: +spawnFloor[2]!.toFixed(1),
      assemblyMemoisedMs: +warm.toFixed(3),
      cacheReadShareTurn1: +shares[0]!.toFixed(3),
      cacheReadShareFromTurn2Min: +Math.min(...later).toFixed(3),
      cacheReadShareFromTurn2Mean: +(later.reduce((a, b) => a + b, 0) / later.length).toFixed(3),
    };
  } finally {
    await standin.close();
  }
}
