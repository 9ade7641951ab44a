import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { VirtuosoHandle } from 'react-virtuoso';

/** Pixels from the end that still count as "at the bottom". */
export const BOTTOM_SLACK = 24;

/**
 * Whether the list follows the end. It does until the reader scrolls up themselves (wheel, keys,
 * the scrollbar) and again once they are back at the bottom; content growing or the panel
 * narrowing under them does not count as leaving. The value is state, not a ref, because the
 * list library reads it as its `followOutput` at the moment a message grows: a reader who has
 * scrolled up must see `false` there, or the growth pulls them back down.
 */
export function useFollow(list: RefObject<VirtuosoHandle | null>, startAtEnd: boolean) {
  const [follow, setFollow] = useState(startAtEnd);
  const following = useRef(follow);
  following.current = follow;
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const toBottom = useCallback(() => list.current?.scrollToIndex({ index: 'LAST', align: 'end' }), [list]);

  useEffect(() => {
    const el = scroller;
    if (!el) return;
    const gap = () => el.scrollHeight - el.clientHeight - el.scrollTop;
    const release = () => {
      if (following.current && el.scrollHeight > el.clientHeight + 1) setFollow(false);
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
    const onScroll = () => {
      if (!following.current && gap() < BOTTOM_SLACK) setFollow(true);
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
    };
  }, [scroller, toBottom]);

  const jump = useCallback(() => {
    setFollow(true);
    toBottom();
  }, [toBottom]);
  const scrollerRef = useCallback((el: HTMLElement | Window | null) => setScroller(el instanceof HTMLElement ? el : null), []);
  return { follow, setFollow, jump, toBottom, scrollerRef };
}
