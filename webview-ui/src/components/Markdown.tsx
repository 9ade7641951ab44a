import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import type { Token, Tokens } from 'marked';
import { addCodeActions } from '../markdown/codeActions';
import { IncrementalMarkdown } from '../markdown/incremental';
import { MARKED_OPTIONS, renderBlock } from '../markdown/render';

interface BlockProps {
  token: Token;
  complete: boolean;
  epoch: number;
}

/** A code block still streaming: plain text through React, no HTML to parse or sanitise per delta. */
function OpenCode({ token }: { token: Tokens.Code }) {
  const lang = (token.lang ?? '').trim().split(/\s+/)[0] || undefined;
  return (
    <div className="code-block open" data-lang={lang}>
      <pre>
        <code className="hljs">{token.text}</code>
      </pre>
    </div>
  );
}

/** One top-level block: parsed, sanitised and drawn again only when its own text changes. */
const Block = memo(
  function Block({ token, complete }: BlockProps) {
    const ref = useRef<HTMLDivElement>(null);
    const open = token.type === 'code' && !complete;
    const html = useMemo(() => (open ? '' : renderBlock(token, complete)), [token, complete, open]);
    useLayoutEffect(() => {
      if (ref.current && complete) addCodeActions(ref.current);
    }, [html, complete]);
    if (open) return <OpenCode token={token as Tokens.Code} />;
    if (!html) return null;
    return <div className="md-block" ref={ref} dangerouslySetInnerHTML={{ __html: html }} />;
  },
  (a, b) => a.complete === b.complete && a.epoch === b.epoch && (a.token === b.token || a.token.raw === b.token.raw),
);

/**
 * Markdown that may still be streaming: each new text is lexed from the last finished block on,
 * and only the block that grew is drawn again; code is highlighted once its fence closes.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const lexer = useRef<IncrementalMarkdown | null>(null);
  lexer.current ??= new IncrementalMarkdown(MARKED_OPTIONS);
  const md = lexer.current;
  // The elements are memoised too: a delta that has not reached the screen yet re-renders nothing below.
  const children = useMemo(
    () => md.update(text, streaming).map((b, i) => <Block key={i} token={b.token} complete={b.complete} epoch={md.epoch} />),
    [md, text, streaming],
  );
  return <div className="markdown">{children}</div>;
});
