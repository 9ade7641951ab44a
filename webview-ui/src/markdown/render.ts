import DOMPurify from 'dompurify';
import { Marked, type Token } from 'marked';
import { escapeHtml, highlightCode } from './highlight';

export const MARKED_OPTIONS = { gfm: true, breaks: false };

// Set around each block's render: code is highlighted only once its block can no longer grow,
// so a streaming code block costs an escape per delta, not a highlight.
let highlightNow = true;

/** A fenced or indented code block, marked so the view can add its Copy and Insert buttons. */
function codeBlockHtml(text: string, lang: string | undefined, highlighted: boolean): string {
  const language = (lang ?? '').trim().split(/\s+/)[0] ?? '';
  const body = highlighted ? highlightCode(text, language) : escapeHtml(text);
  const label = language ? ` data-lang="${escapeHtml(language)}"` : '';
  return `<div class="code-block${highlighted ? '' : ' open'}"${label}><pre><code class="hljs${language ? ` language-${escapeHtml(language)}` : ''}">${body}</code></pre></div>`;
}

const marked = new Marked({
  ...MARKED_OPTIONS,
  renderer: {
    code({ text, lang }) {
      return codeBlockHtml(text, lang, highlightNow);
    },
  },
});

/** The HTML of one top-level block, before sanitising (pure, so Node tests can compare it). */
export function blockHtml(token: Token, complete: boolean): string {
  if (token.type === 'space') return '';
  highlightNow = complete;
  try {
    return marked.parser([token]);
  } finally {
    highlightNow = true;
  }
}

/** Model output is untrusted: everything it becomes is sanitised before it meets the DOM. */
function sanitize(html: string): string {
  return DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'], FORBID_ATTR: ['style'] });
}

export function renderBlock(token: Token, complete: boolean): string {
  const html = blockHtml(token, complete);
  return html ? sanitize(html) : '';
}
