import { Lexer, type Links, type MarkedOptions, type Token, type Tokens } from 'marked';

/** One top-level Markdown block, as the renderer draws it. */
export interface MarkdownBlock {
  token: Token;
  /** No text still to come can change it: fenced code inside it is closed and may be highlighted. */
  complete: boolean;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** A fenced code token whose closing fence has arrived. */
export function isClosedFence(token: Token): boolean {
  if (token.type !== 'code' || (token as Tokens.Code).codeBlockStyle === 'indented') return false;
  let end = token.raw.length;
  while (end > 0 && token.raw.charCodeAt(end - 1) === 10) end--;
  const raw = token.raw.slice(0, end);
  const firstBreak = raw.indexOf('\n');
  if (firstBreak < 0) return false;
  const open = FENCE_OPEN.exec(raw.slice(0, firstBreak))?.[1];
  if (!open) return false;
  // Only the last line can close it; looking at it alone keeps this O(1) in the block's size.
  const last = raw.slice(raw.lastIndexOf('\n') + 1);
  const m = FENCE_CLOSE.exec(last);
  return m !== null && m[1]![0] === open[0] && m[1]!.length >= open.length;
}

const LIST_CONTINUATION = /^[ \t\-*+0-9]/;
const INDENTED = /^[ \t]/;

/**
 * Whether the blocks before offset `at` of `source` are final: a blank line or a closed fence
 * ends them, and what follows cannot reach back — no list marker or indent that would continue
 * a list, no indent that would continue indented code. Lexing the rest on its own then gives
 * the same tokens as lexing the whole (marked's rules that look at the previous token only
 * look at paragraphs, and a blank line or a fence stands between).
 */
function canCutAfter(tokens: readonly Token[], i: number, nextText: string): boolean {
  const t = tokens[i]!;
  if (!nextText) return false;
  const endsBlock = t.type === 'space' ? /\n/.test(t.raw) : isClosedFence(t) && t.raw.endsWith('\n');
  if (!endsBlock) return false;
  let j = i;
  while (j >= 0 && tokens[j]!.type === 'space') j--;
  const last = j >= 0 ? tokens[j]! : undefined;
  if (last?.type === 'list' && LIST_CONTINUATION.test(nextText)) return false;
  if (last?.type === 'code' && (last as Tokens.Code).codeBlockStyle === 'indented' && INDENTED.test(nextText)) return false;
  return true;
}

/**
 * Lexes a growing Markdown text so that each new delta costs the size of the unfinished tail,
 * not of the whole answer: blocks that can no longer change are kept (same token objects, so the
 * views drawn from them are memoised), and only the text after the last safe cut is lexed again.
 * When the text stops streaming, one full lex gives exactly what a one-shot parse would.
 */
export class IncrementalMarkdown {
  private source = '';
  private frozen: Token[] = [];
  private cut = 0;
  private links: Links = Object.create(null) as Links;
  private finished: MarkdownBlock[] | undefined;

  constructor(private readonly options: MarkedOptions) {}

  /** Changes whenever kept blocks are thrown away, so views memoised on a block's text know to redraw. */
  epoch = 0;

  /** Characters lexed again on the next delta: the text after the last safe cut. */
  get pendingLength(): number {
    return this.source.length - this.cut;
  }

  update(text: string, streaming: boolean): MarkdownBlock[] {
    // marked reads \r\n as \n; normalising first keeps offsets in step with the tokens' raws.
    const source = text.indexOf('\r') >= 0 ? text.replace(/\r\n?/g, '\n') : text;
    if (!streaming) {
      if (this.finished && source === this.source) return this.finished;
      this.reset(source);
      const all = Lexer.lex(source, this.options);
      this.finished = all.map((token) => ({ token, complete: true }));
      return this.finished;
    }
    this.finished = undefined;
    // Anything but growth (a rewrite, an edit) starts again from nothing.
    if (source.length < this.cut || !source.startsWith(this.source.slice(0, this.cut))) this.reset(source);
    this.source = source;
    let tail = this.lexTail(source.slice(this.cut));
    if (!tail) {
      this.reset(source);
      tail = this.lexTail(source)!;
    }
    let consumed = 0;
    if (tail.tiles) {
      let offset = this.cut;
      for (let i = 0; i < tail.tokens.length - 1; i++) {
        offset += tail.tokens[i]!.raw.length;
        if (!canCutAfter(tail.tokens, i, source.slice(offset, offset + 1))) continue;
        for (let k = consumed; k <= i; k++) this.freeze(tail.tokens[k]!);
        consumed = i + 1;
        this.cut = offset;
      }
    }
    const open = tail.tokens.slice(consumed);
    return [
      ...this.frozen.map((token) => ({ token, complete: true })),
      ...open.map((token, i) => ({ token, complete: i < open.length - 1 || isClosedFence(token) })),
    ];
  }

  private freeze(token: Token): void {
    this.frozen.push(token);
    this.collectDefs(token);
  }

  /** Link definitions anywhere in a kept block (a list item may hold one); the first one wins, as in marked. */
  private collectDefs(token: Token): void {
    if (token.type === 'def') this.links[token.tag] ??= { href: token.href, title: token.title };
    const children: Token[] = [];
    if ('items' in token && Array.isArray(token.items)) for (const item of token.items as Tokens.ListItem[]) children.push(...item.tokens);
    else if (token.type === 'blockquote') children.push(...((token as Tokens.Blockquote).tokens ?? []));
    for (const child of children) this.collectDefs(child);
  }

  private reset(source: string): void {
    this.epoch++;
    this.source = source;
    this.frozen = [];
    this.cut = 0;
    this.links = Object.create(null) as Links;
  }

  /**
   * Lexes the tail with the link definitions of the kept blocks. Undefined when the tail defines
   * a label of its own while blocks are kept (one of them may refer to it: lex everything again).
   * `tiles` says the tokens' raws add up to the tail exactly, so offsets can be trusted.
   */
  private lexTail(tail: string): { tokens: Token[]; tiles: boolean } | undefined {
    const lexer = new Lexer(this.options);
    Object.assign(lexer.tokens.links, this.links);
    const tokens = lexer.lex(tail);
    if (this.cut > 0 && Object.keys(tokens.links).length !== Object.keys(this.links).length) return undefined;
    let length = 0;
    for (const t of tokens) length += t.raw.length;
    return { tokens: [...tokens], tiles: length === tail.length };
  }
}
