// Child process for the crash test: saves drafts to one session, one after another, until killed.
import { SessionUiStore } from '../../../src/sessions/sessionUiStore';

const [dir] = process.argv.slice(2) as [string];
const ui = new SessionUiStore(dir);
void (async () => {
  for (let i = 1; ; i++) {
    // Every draft is whole only if it ends with its own number: a mix of two would show.
    const text = `draft ${i} ${'é'.repeat(i % 5 === 0 ? 200_000 : 50)} end ${i}`;
    await ui.saveDraft('s1', { text, at: i });
    // The kill comes after the first draft is down: there is always an old one to keep.
    if (i === 1) process.stdout.write('started\n');
  }
})();
