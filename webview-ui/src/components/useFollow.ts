import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { VirtuosoHandle } from 'react-virtuoso';

/** Pixels from the end that still count as "at the bottom". */
export const BOTTOM_SLACK = 24;

/** How long after a height change a scroll up may be the library's own (its event comes a frame or so later). */
const RESIZE_SCROLL_MS = 100;

/**
 * Whether the list follows the end. It does until the reader scrolls up themselves (wheel, keys,
 * the scrollbar) and again once they are back at the bottom; content growing or the panel
 * narrowing under them does not count as leaving. Whoever scrolls to follow reads the ref, not
 * the state: a chunk that lands between the wheel and the next render must already see `false`,
 * or the growth pulls the reader back down (seen on a loaded machine). The state is there for
 * what renders (the jump button).
 */
export function useFollow(list: RefObject<VirtuosoHandle | null>, startAtEnd: boolean) {
  const [follow, setFollow] = useState(startAtEnd);
  // Written only beside setFollow, never from a render, so no render can undo a release.
  const following = useRef(startAtEnd);
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const scrollerEl = useRef<HTMLElement | null>(null);
  // Following scrolls the scroller itself, once, to its end. The library's scrollToIndex does the
  // same but then scrolls again on the next size change until it reaches its target, and a chunk
  // landing just after the reader's wheel up had it pull them back down (CI's scroll trace: the
  // wheel, the reader's scroll up to 782, then the new end, 1056, with following already off).
  // Each growth while following calls this again (totalListHeightChanged), so the end is kept.
  // Where our own last scroll put the top: its scroll event comes a frame later, possibly after
  // the reader's wheel, and must not read as the reader going back down to the end.
  const ownTop = useRef<number | undefined>(undefined);
  const toBottom = useCallback(() => {
    const el = scrollerEl.current;
    if (!el) {
      list.current?.scrollToIndex({ index: 'LAST', align: 'end' });
      return;
    }
    el.scrollTop = el.scrollHeight;
    ownTop.current = el.scrollTop;
  }, [list]);
  // When the list last changed height. A row
  // above the viewport that shrinks (a divider losing its note on Undo) makes the library scroll
  // up by as much, to keep the rows on screen in place: read as the reader's scroll, it let go of
  // the end, and the library, taking it for scrolling upwards, then "corrected" the position by
  // the height of a long message above and left the reader inside it, with the notice that had
  // just arrived out of the list. A scroll up right after a height change is the reader's only if
  // their wheel, keys or scrollbar say so.
  const resizedAt = useRef(Number.NEGATIVE_INFINITY);
  /** The list's height changed: the reader at the end stays at the end. */
  const keep = useCallback(() => {
    resizedAt.current = performance.now();
    if (following.current) toBottom();
  }, [toBottom]);

  useEffect(() => {
    const el = scroller;
    if (!el) return;
    const gap = () => el.scrollHeight - el.clientHeight - el.scrollTop;
    const release = () => {
      if (following.current && el.scrollHeight > el.clientHeight + 1) {
        following.current = false;
        setFollow(false);
      }
    };
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY < 0) release();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'PageUp' || e.key === 'ArrowUp' || e.key === 'Home') release();
    };
    // A press on the scrollbar (right of the content box) is the reader taking over too.
    const onPointer = (e: PointerEvent) => {
      if (e.offsetX > el.clientWidth) release();
    };
    // A wheel or a scrollbar drag is scrolled by the compositor before the page hears of it: on a
    // busy machine a growing answer can be laid out first, and the list would pull the reader
    // back down before onWheel runs. The scroll itself says it too: the top moved up while the
    // content did not shrink, which nothing but the reader does (the list only ever scrolls down
    // to follow). Scroll events are handled before resize observers in a frame, so this lands first.
    let lastTop = el.scrollTop;
    let lastHeight = el.scrollHeight;
    const judge = () => {
      const ours = ownTop.current !== undefined && Math.abs(el.scrollTop - ownTop.current) <= 1;
      ownTop.current = undefined;
      const movedUp = el.scrollTop < lastTop - 1 && el.scrollHeight >= lastHeight;
      const movedDown = el.scrollTop > lastTop + 1 && !ours;
      lastTop = el.scrollTop;
      lastHeight = el.scrollHeight;
      if (movedUp && following.current && performance.now() - resizedAt.current < RESIZE_SCROLL_MS) {
        // Back to the end at once, before the library takes the move for scrolling upwards; the
        // reader's wheel, keys or scrollbar still let go (their handlers release).
        toBottom();
        return;
      }
      if (movedUp) {
        release();
        return;
      }
      // Following again takes the reader going down to the end. A scroll event that merely
      // reports the end (one of ours to follow, landing just after the wheel: `ours`) or the library's
      // "at bottom", which it reports late, gave the reader back to the stream on CI: the trace
      // showed the wheel heard at the end, then the end again, then the scroll up, then the end.
      if (!following.current && movedDown && gap() < BOTTOM_SLACK) {
        following.current = true;
        setFollow(true);
      }
    };
    // The library scrolls by the change in the list's total height whenever that height changes
    // while the last scroll went up and the first row is not rendered ("upward scrolling
    // compensation"): meant for rows above measured as the reader scrolls up, it also fires when the
    // answer at the end grows, and with chunks landing faster than its 50 ms window it carried a
    // reader who had just wheeled up down with the stream (CI's trace: 732, 781, 806 … each
    // exactly the growth). Once the reader has let go, the rows they see are what stays: the
    // library's scroll is replaced by the distance the row at the top of the panel actually moved,
    // which is zero when only the end grew.
    let seen: { row: HTMLElement; top: number } | undefined;
    const rowAtTop = () => {
      const edge = el.getBoundingClientRect().top;
      for (const row of el.querySelectorAll<HTMLElement>('[data-item-index]')) {
        const box = row.getBoundingClientRect();
        if (box.bottom > edge + 1) return { row, top: box.top - edge };
      }
      return undefined;
    };
    const libraryScrollBy = el.scrollBy.bind(el) as (...args: unknown[]) => void;
    const scrollBy = (...args: unknown[]) => {
      if (!following.current && seen?.row.isConnected) {
        const moved = seen.row.getBoundingClientRect().top - el.getBoundingClientRect().top - seen.top;
        if (Math.abs(moved) < 1) return;
        el.scrollTop += moved;
        return;
      }
      libraryScrollBy(...args);
    };
    el.scrollBy = scrollBy as typeof el.scrollBy;
    const onScroll = () => {
      judge();
      // Where the reader's rows are now, for the library's next scrollBy (above).
      seen = following.current ? undefined : rowAtTop();
    };
    // A narrower or shorter panel reflows the messages; the reader at the end stays at the end.
    const resized = new ResizeObserver(() => {
      if (following.current) toBottom();
    });
    el.addEventListener('wheel', onWheel, { passive: true });
    el.addEventListener('keydown', onKey);
    el.addEventListener('pointerdown', onPointer);
    el.addEventListener('scroll', onScroll, { passive: true });
    resized.observe(el);
    return () => {
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('keydown', onKey);
      el.removeEventListener('pointerdown', onPointer);
      el.removeEventListener('scroll', onScroll);
      resized.disconnect();
      // Back to the element's own method (the override is an own property).
      Reflect.deleteProperty(el, 'scrollBy');
    };
  }, [scroller, toBottom]);

  const jump = useCallback(() => {
    following.current = true;
    setFollow(true);
    toBottom();
  }, [toBottom]);
  const scrollerRef = useCallback((el: HTMLElement | Window | null) => {
    scrollerEl.current = el instanceof HTMLElement ? el : null;
    setScroller(scrollerEl.current);
  }, []);
  /** Stops following without the reader's gesture (the list was put back where they left it). */
  const hold = useCallback(() => {
    following.current = false;
    setFollow(false);
  }, []);
  return { follow, following, hold, jump, keep, scrollerRef };
}
