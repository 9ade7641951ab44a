// Child process for the crash test: records messages, one by one, until killed.
import { SessionRecorder } from '../../../src/sessions/recorder';
import { SessionStore } from '../../../src/sessions/sessionStore';

const [dir, id] = process.argv.slice(2) as [string, string];
const rec = new SessionRecorder(new SessionStore(dir), { id, cwd: dir, model: 'm' });
process.stdout.write('started\n');
void (async () => {
  for (let i = 0; ; i++) {
    const text = `message ${i} ${'x'.repeat(i % 7 === 0 ? 20_000 : 200)}`;
    await rec.append({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text }] });
    await rec.view(i % 2 ? { kind: 'assistant', id: `a${i}`, text, streaming: false, createdAt: i } : { kind: 'user', id: `u${i}`, text, createdAt: i });
  }
})();
