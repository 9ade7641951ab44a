// Child process for the crash test: writes session events until killed.
import { SessionRecorder } from '../../../src/sessions/recorder';
import { SessionStore } from '../../../src/sessions/sessionStore';
import type { MessageParam } from '../../../src/api/types';
import type { ViewMessage } from '../../../src/shared/viewState';

const [dir, id] = process.argv.slice(2) as [string, string];
const rec = new SessionRecorder(new SessionStore(dir), { id, cwd: dir, model: 'm' });
const history: MessageParam[] = [];
const view: ViewMessage[] = [];
process.stdout.write('started\n');
for (let i = 0; ; i++) {
  const text = `message ${i} ${'x'.repeat(i % 7 === 0 ? 20_000 : 200)}`;
  history.push({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text }] });
  view.push(i % 2 ? { kind: 'assistant', id: `a${i}`, text, streaming: false, createdAt: i } : { kind: 'user', id: `u${i}`, text, createdAt: i });
  await rec.sync(history, view, i);
}
