// Runs one bounded-pattern case in its own process (see patternBombs.test.ts): a match that
// backtracks for ever freezes the event loop, so only a parent with a timeout can see it.
import { globsMatch } from '../../src/context/rulePaths';
import { loadInstructions } from '../../src/context/instructions';
import { GitignoreRules } from '../../src/fs/gitignore';

const [mode, ws] = process.argv.slice(2) as [string, string];
const deep = `a/${'x/'.repeat(30)}c.txt`;
if (mode === 'gitignore') {
  const rules = new GitignoreRules(ws);
  rules.load('');
  console.log(JSON.stringify({ ignored: rules.ignored(deep, false), plain: rules.ignored('build/out.js', false) }));
} else if (mode === 'paths') {
  console.log(JSON.stringify({ matched: globsMatch([`a/${'**/'.repeat(20)}b`], deep), plain: globsMatch(['a/**/c.txt'], deep) }));
} else if (mode === 'many') {
  // Pass 37 B1: 2,000 patterns, each within the bounds, against 60 folders of 60-character names.
  const name = 'a'.repeat(60);
  const path = `${Array(60).fill(name).join('/')}/c`;
  const globs = Array.from({ length: 2000 }, (_, i) => (i % 2 ? `a*/**/a*/**/b${i}` : `a*/**/a*a*a*a*a*/**/a*a*a*a*a*/**/b${i}`));
  console.log(JSON.stringify({ matched: globsMatch(globs, path), plain: globsMatch([...globs, `${name}/**`], `${name}/x`) }));
} else if (mode === 'rules') {
  const set = await loadInstructions({ cwd: ws, projectRoot: ws, home: ws, managedRoot: null, filesystemRoot: ws, approveExternal: async () => false });
  console.log(JSON.stringify({ files: set.files.map((f) => f.path), notes: JSON.stringify(set).includes('bomb.md') }));
}
