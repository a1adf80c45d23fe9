import { useCallback, useState, type UIEvent } from 'react';

/**
 * Which of `count` fixed-height rows a scrolling box shows: display positions first..last
 * (inclusive; last < first when there are none) and the blank space above and below them, so
 * 100k rows cost a screenful of elements.
 */
export function useVisibleWindow(count: number, rowPx: number) {
  const [scrollTop, setScrollTop] = useState(0);
  const [heightPx, setHeightPx] = useState(400);
  const ref = useCallback((el: HTMLElement | null) => {
    if (el && el.clientHeight > 0) setHeightPx(el.clientHeight);
  }, []);
  const onScroll = useCallback((e: UIEvent<HTMLElement>) => {
    setScrollTop(e.currentTarget.scrollTop);
  }, []);
  const first = Math.min(Math.floor(scrollTop / rowPx), Math.max(0, count - 1));
  const last = Math.min(count - 1, Math.ceil((scrollTop + heightPx) / rowPx));
  return {
    first,
    last,
    abovePx: first * rowPx,
    belowPx: Math.max(0, count - 1 - last) * rowPx,
    ref,
    onScroll,
  };
}
