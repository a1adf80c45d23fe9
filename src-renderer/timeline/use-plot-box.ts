import { useEffect, useLayoutEffect, useRef, useState, type RefObject, type UIEvent } from 'react';
import { useViewStore } from '../state/view-store';
import { AXIS_HEIGHT } from './row-layout';

/** The box a timeline plots in: its body's size and how far its rows are scrolled. */
export interface PlotBox {
  /** the timeline's body (axis and rows): its size is observed */
  body: RefObject<HTMLDivElement | null>;
  /** the element that scrolls the rows */
  scroller: RefObject<HTMLDivElement | null>;
  width: number;
  /** the rows' height: the body's less the axis */
  viewHeight: number;
  scrollTop: number;
  onScroll(event: UIEvent<HTMLDivElement>): void;
}

/**
 * Keeps a timeline's box measured and its scroll remembered under `scrollKey` in the view
 * store: a timeline mounted again (another tab and back, a preview that moved the file's start)
 * opens where the user had scrolled.
 */
export function usePlotBox(scrollKey: string): PlotBox {
  const body = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 800, height: 500 });
  const setStoredScrollTop = useViewStore((s) => s.setScrollTop);
  const [scrollTop, setScrollTop] = useState(
    () => useViewStore.getState().scrollTops[scrollKey] ?? 0,
  );
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = scrollTop;
    // and on unmount, where the element is now: a scroll event comes a frame after the scroll,
    // so a view replaced within that frame (the file's last rows in) would forget it
    return () => {
      if (element) setStoredScrollTop(scrollKey, element.scrollTop);
    };
    // once, on mount: later scrolls come from the element itself
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) =>
      setSize({ width: entry.contentRect.width, height: entry.contentRect.height }),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return {
    body,
    scroller,
    width: size.width,
    viewHeight: Math.max(50, size.height - AXIS_HEIGHT),
    scrollTop,
    onScroll: (event) => {
      setScrollTop(event.currentTarget.scrollTop);
      setStoredScrollTop(scrollKey, event.currentTarget.scrollTop);
    },
  };
}
