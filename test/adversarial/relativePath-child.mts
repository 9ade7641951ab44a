// Judges and runs commands in the workspace given as argv[2], with this process's PATH (which the
// parent sets): see relativePath.test.ts.
import { BashChecker } from '../../src/permissions/bash/checker';
import { bashEngine, runBash } from './support';

const ws = process.argv[2]!;
const checker = new BashChecker();
await checker.ready();
const engine = bashEngine(ws, { allow: ['Bash(ls:*)', 'Bash(cat:*)'] }, checker);
const verdicts = ['cat *.txt', 'ls {a,b}.txt', 'ls -la'].map((c) => engine.decide(c).behavior);
const r = await runBash(ws, 'ls a.txt; cat a.txt; git --version >/dev/null; echo "PATH=$PATH"');
console.log(JSON.stringify({ verdicts, out: r.content }));
