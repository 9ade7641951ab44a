// Issue 15's cost sessions played to the reference Claude Code CLI and to the peers' CLIs
// (Cline, Kilo, Continue) beside Threadline's, against the Messages API stand-in; prints the
// issue's table. Not part of `npm test` or `npm run bench`: it installs the other CLIs from npm.
//
//   npm run build
//   node scripts/compareCost.mjs --install /tmp/cost-agents [--variant full|quick|all]
//        [--only newFiles,workingSet,chat] [--agents claude-code,threadline,cline,kilo,continue]
//        [--claude BIN] [--cline BIN] [--kilo BIN] [--continue BIN] [--write]
//
// --install DIR installs each CLI not given by path into DIR/<agent> (npm, scripts allowed, as
// scripts/compareReference.mjs's header does by hand); --write stores the figures in
// bench/reference-costs.json, from which `npm run bench` prints its ratios to the reference.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench/cost/compare.ts'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
