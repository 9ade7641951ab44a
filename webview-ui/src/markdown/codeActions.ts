import { post } from '../vscodeApi';

// Copy and Insert on every finished code block. The buttons are made here, with their own
// listeners, after the sanitised HTML is in place: nothing in model output can carry a button
// that acts (the sanitiser drops <button>), so only ours do.

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Some webview hosts refuse the async clipboard; the old path still works there.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

function button(icon: string, label: string, testId: string, onClick: (b: HTMLButtonElement) => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'icon code-action';
  b.title = label;
  b.setAttribute('aria-label', label);
  b.dataset.testid = testId;
  const i = document.createElement('span');
  i.className = `codicon codicon-${icon}`;
  b.appendChild(i);
  b.addEventListener('click', () => onClick(b));
  return b;
}

/** Adds a header with the language and Copy / Insert at Cursor to each closed code block under `root`. */
export function addCodeActions(root: HTMLElement): void {
  for (const block of Array.from(root.querySelectorAll<HTMLElement>('.code-block:not(.open)'))) {
    if (block.querySelector(':scope > .code-head')) continue;
    const code = () => block.querySelector('code')?.textContent ?? '';
    const head = document.createElement('div');
    head.className = 'code-head';
    const lang = document.createElement('span');
    lang.className = 'code-lang';
    lang.textContent = block.dataset.lang ?? '';
    head.appendChild(lang);
    head.appendChild(
      button('copy', 'Copy', 'code-copy', (b) => {
        void copyText(code()).then((ok) => {
          b.classList.toggle('done', ok);
          b.title = ok ? 'Copied' : 'Copy failed';
          setTimeout(() => {
            b.classList.remove('done');
            b.title = 'Copy';
          }, 1500);
        });
      }),
    );
    head.appendChild(button('insert', 'Insert at Cursor', 'code-insert', () => post({ type: 'editor/insertText', payload: { text: code() } })));
    block.insertBefore(head, block.firstChild);
  }
}
