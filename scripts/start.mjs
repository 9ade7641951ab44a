// `npm start`: real VS Code in the browser with Threadline installed, on a sample workspace.
// Builds and packages first, so what you try is what ships. Runs until Ctrl+C.
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_SETTINGS, ROOT, makeSampleWorkspace, sampleWorkspaceDir, startCodeServer } from './codeServer.mjs';
import { choosePort } from './startPort.mjs';

// Before the build: a port that is taken is refused (or, when none was asked for, another one
// chosen) before a minute goes into packaging.
let chosen;
try {
  chosen = await choosePort();
} catch (err) {
  console.error(`[start] ${err.message}`);
  process.exit(1);
}
if (chosen.note) console.log(`[start] ${chosen.note}`);

console.log('[start] building and packaging Threadline…');
execSync('npm run --silent package', { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });

// Kept between runs (in .cache/, git-ignored) so settings, the stored key and sessions survive.
const base = join(ROOT, '.cache', 'dev');
const dirs = { base, userData: join(base, 'user-data'), extensions: join(base, 'extensions'), home: join(base, 'home'), install: true };
mkdirSync(join(dirs.userData, 'User'), { recursive: true });
mkdirSync(dirs.extensions, { recursive: true });
const settingsFile = join(dirs.userData, 'User', 'settings.json');
if (!existsSync(settingsFile)) writeFileSync(settingsFile, JSON.stringify(BASE_SETTINGS, null, 2));
const workspace = sampleWorkspaceDir();
if (!existsSync(join(workspace, '.git'))) makeSampleWorkspace(workspace);

let server;
try {
  server = await startCodeServer({ workspace, dirs, port: chosen.port, isolate: false });
} catch (err) {
  console.error(`\n[start] could not start VS Code: ${err.message}`);
  process.exit(1);
}
// Before the address, so it is the last thing read before opening the page.
if (!process.env.ANTHROPIC_API_KEY) {
  console.log(
    '\nNo ANTHROPIC_API_KEY in this shell. To get answers, either restart with the key in the environment\n' +
      '(ANTHROPIC_API_KEY=sk-ant-… npm start), or in the editor run "Threadline: Set API Key" from the\n' +
      'command palette (F1) or press Set API Key in the empty chat; the key is kept in VS Code\'s secret storage.',
  );
}
console.log(`\nThreadline is running in VS Code at:\n\n  ${server.url}\n\nOpen it in your browser; the Threadline icon is in the activity bar. Ctrl+C stops it.`);
console.log(`The sample workspace is ${workspace}.`);
const shutdown = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
