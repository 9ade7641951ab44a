import { createRoot } from 'react-dom/client';
import type { HostToWebviewMessage } from '../../src/shared/protocol';
import { App } from './components/App';
import { ViewMirror } from './mirror';
import { openContext, receiveContextReport } from './contextChannel';
import { handBack } from './controls/composerInbox';
import { receiveRestore } from './persist/sessionUi';
import { reveal } from './reveal';
import { bindMirror } from './useView';
import { post } from './vscodeApi';
import './styles.css';

const mirror = new ViewMirror(post);
bindMirror(mirror);

window.addEventListener('message', (event: MessageEvent<HostToWebviewMessage>) => {
  const data = event.data;
  if (!data) return;
  if (data.type === 'state/snapshot' || data.type === 'state/patch') mirror.receive(data);
  else if (data.type === 'view/reveal' && typeof data.payload?.id === 'string') reveal(data.payload.id);
  else if (data.type === 'context/report' && data.payload?.report) receiveContextReport(data.payload.report);
  else if (data.type === 'context/open') openContext();
  else if (data.type === 'composer/insert' && typeof data.payload?.sessionId === 'string' && typeof data.payload.text === 'string') handBack(data.payload.sessionId, data.payload.text);
  else if (data.type === 'ui/restore' && typeof data.payload?.sessionId === 'string') {
    const { sessionId, draft, scroll } = data.payload;
    receiveRestore(sessionId, { draft: draft ?? null, scroll: scroll ?? null });
  }
});

createRoot(document.getElementById('root')!).render(<App />);
// Listening now: the host sends nothing before this.
mirror.start();
