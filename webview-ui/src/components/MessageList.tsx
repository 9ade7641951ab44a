import { debounce } from 'lodash-es';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Virtuoso, type ListRange, type VirtuosoHandle } from 'react-virtuoso';
import type { ViewState } from '../../../src/shared/viewState';
import { keepScroll, onRestore, restoreArrived, scrollFor } from '../persist/sessionUi';
import { useFlushOnLeave } from '../persist/useFlushOnLeave';
import { onReveal } from '../reveal';
import { currentView, useView } from '../useView';
import { post } from '../vscodeApi';
import { FlashContext, MessageRow } from './MessageView';
import { BOTTOM_SLACK, useFollow } from './useFollow';

const selectCount = (s: ViewState) => s.messages.length;
const selectSession = (s: ViewState) => s.sessionId;

const keyAt = (index: number) => currentView()?.messages[index]?.id ?? `#${index}`;

/**
 * The first message the reader sees (its lower edge below the top of the list), read from the
 * rows on screen: the range the library reports starts in the overscan above the viewport.
 */
function firstVisible(scroller: HTMLElement): string | undefined {
  const edge = scroller.getBoundingClientRect().top + 1;
  let best: { index: number; top: number } | undefined;
  for (const row of scroller.querySelectorAll<HTMLElement>('[data-item-index]')) {
    const box = row.getBoundingClientRect();
    const index = Number(row.dataset.itemIndex);
    if (box.bottom > edge && Number.isInteger(index) && (!best || box.top < best.top)) best = { index, top: box.top };
  }
  return best ? keyAt(best.index) : undefined;
}
const indexOf = (id: string) => currentView()?.messages.findIndex((m) => m.id === id) ?? -1;

/** Where the reader left this session (kept by the host across a reload), if not at the end. */
function savedIndex(sessionId: string): number | undefined {
  const saved = scrollFor(sessionId);
  if (!saved || saved.atBottom) return undefined;
  const index = indexOf(saved.topId);
  return index >= 0 ? index : undefined;
}

/** Where a list opens: the message the reader left at the top, else (undefined) the end. */
const initialIndex = (sessionId: string): number | undefined => savedIndex(sessionId);

/**
 * At most this long after it opens, the list shows, positioned or not. The library's own
 * opening (`initialTopMostItemIndex`) hides the list until its scroll to the first location
 * settles, which takes 150 ms without any message changing size: an answer streaming into a
 * narrow panel wraps a new line more often than that, and the whole turn, the user's message
 * too, stayed hidden until the answer ended. So the list opens itself, and hides for a moment
 * only, to spare the reader a glimpse of the wrong end of a long conversation.
 */
const OPENING_MS = 300;

/**
 * The conversation, virtualized: only the messages near the viewport are in the DOM, whatever
 * the history. While the reader is at the bottom the list follows the answer as it grows; once
 * they scroll up it stays put, and a button brings them back.
 */
export function MessageList() {
  const count = useView(selectCount) ?? 0;
  const sessionId = useView(selectSession) ?? '';
  return <SessionList key={sessionId} sessionId={sessionId} count={count} />;
}

function SessionList({ sessionId, count }: { sessionId: string; count: number }) {
  const list = useRef<VirtuosoHandle>(null);
  const [atBottom, setAtBottom] = useState(true);
  const [flash, setFlash] = useState<string | undefined>();
  const initial = useMemo(() => initialIndex(sessionId), [sessionId]);
  const bottom = useRef(true);
  const { follow, following, hold, jump, keep, scrollerRef } = useFollow(list, initial === undefined);
  // Where the list still has to go once its first messages are measured (a saved place), and
  // whether it is there (or has had its moment): until then it is hidden.
  const pendingIndex = useRef(initial);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setOpened(true), OPENING_MS);
    return () => clearTimeout(t);
  }, []);
  const scroller = useRef<HTMLElement | null>(null);
  const onScroller = useCallback(
    (el: HTMLElement | Window | null) => {
      scroller.current = el instanceof HTMLElement ? el : null;
      scrollerRef(el);
    },
    [scrollerRef],
  );

  // Saved a little later, and only once per burst of scrolling: each save copies the panel's state
  // and crosses to the host. Nothing is saved before the host has said where this session was, or
  // a list opened at the end would overwrite the place it is about to be put back at.
  const remember = useMemo(
    () =>
      debounce(() => {
        // A panel being hidden or torn down has no height: what it reports then is not a place.
        const el = scroller.current;
        if (!el || el.clientHeight === 0 || !restoreArrived(sessionId)) return;
        const topId = firstVisible(el);
        if (!topId) return;
        const anchor = { topId, atBottom: bottom.current };
        const kept = scrollFor(sessionId);
        if (kept && kept.topId === anchor.topId && kept.atBottom === anchor.atBottom) return;
        const at = Date.now();
        keepScroll(sessionId, { ...anchor, at });
        post({ type: 'scroll/save', payload: { sessionId, ...anchor, at } });
      }, 250),
    [sessionId],
  );
  const flushAnchor = useCallback(() => remember.flush(), [remember]);
  useFlushOnLeave(flushAnchor);
  // The host's copy came after the list opened (a session switched to before it was read): put
  // the reader back there, unless they have already scrolled up themselves.
  useEffect(
    () =>
      onRestore((id) => {
        if (id !== sessionId || !following.current) return;
        const index = savedIndex(sessionId);
        if (index === undefined) return;
        hold();
        list.current?.scrollToIndex({ index, align: 'start' });
      }),
    [sessionId, following, hold],
  );

  const onRange = useCallback(
    (range: ListRange) => {
      // Positioned: the place it opens at is among the rendered rows (the end, or the saved message).
      const target = initial ?? count - 1;
      if (pendingIndex.current === undefined && range.startIndex <= target && target <= range.endIndex) setOpened(true);
      remember();
    },
    [remember, initial, count],
  );
  const onBottom = useCallback(
    (value: boolean) => {
      // Only whether the jump button shows: following again is the scroll handler's call
      // (useFollow), which sees the reader go down; this report can come after a wheel up.
      bottom.current = value;
      setAtBottom(value);
      remember();
    },
    [remember],
  );
  // The list follows here and only here, not through the library's followOutput: given any
  // followOutput but `false`, the library also scrolls to the end by itself when a size increase
  // and a scroll up land close together (it ranks "size increased" over "scrolling upwards"),
  // which pulled a reader who had just wheeled up back down (the e2e test's scroll trace: the
  // wheel's scroll up, then the end again with no scroll of ours in between).
  const onHeight = useCallback(() => {
    const index = pendingIndex.current;
    if (index !== undefined) {
      // The first measurement is in: now the library can tell where that message is.
      pendingIndex.current = undefined;
      list.current?.scrollToIndex({ index, align: 'start' });
      return;
    }
    keep();
  }, [keep]);

  useEffect(
    () =>
      onReveal((id) => {
        const index = indexOf(id);
        if (index < 0) return;
        list.current?.scrollToIndex({ index, align: 'center' });
        setFlash(id);
      }),
    [],
  );
  useEffect(() => {
    if (!flash) return;
    const t = setTimeout(() => setFlash(undefined), 1500);
    return () => clearTimeout(t);
  }, [flash]);

  const item = useCallback((index: number) => <MessageRow index={index} />, []);
  return (
    <div className={`message-list-frame${opened ? '' : ' opening'}`}>
      <FlashContext.Provider value={flash}>
      <Virtuoso
        ref={list}
        className="message-list"
        data-testid="message-list"
        role="log"
        totalCount={count}
        computeItemKey={keyAt}
        itemContent={item}
        scrollerRef={onScroller}
        followOutput={false}
        totalListHeightChanged={onHeight}
        atBottomStateChange={onBottom}
        atBottomThreshold={BOTTOM_SLACK}
        increaseViewportBy={{ top: 400, bottom: 400 }}
        rangeChanged={onRange}
        skipAnimationFrameInResizeObserver
        components={{ Header: ListPad, Footer: ListPad }}
      />
      </FlashContext.Provider>
      {!atBottom && !follow && (
        <button
          className="jump-to-bottom"
          data-testid="jump-to-bottom"
          title="Jump to the latest message"
          aria-label="Jump to the latest message"
          onClick={jump}
        >
          <span className="codicon codicon-arrow-down" />
        </button>
      )}
    </div>
  );
}

function ListPad() {
  return <div className="list-pad" />;
}
