// A host whose search meets a repository's special .gitignore: it must finish the search, and a
// SIGTERM must still reach its handler afterwards (a blocking open freezes the event loop, and a
// frozen loop runs no signal handler).
import { createTools } from '../../src/tools/builtin';

const cwd = process.argv[2]!;
process.on('SIGTERM', () => {
  process.stdout.write('terminated\n');
  process.exit(0);
});
const glob = createTools().find((t) => t.name === 'Glob')!;
process.stdout.write('started\n');
const r = await glob.call({ pattern: '**' }, { cwd, signal: new AbortController().signal });
process.stdout.write(`done ${JSON.stringify(r.content)}\n`);
setInterval(() => undefined, 1000);
