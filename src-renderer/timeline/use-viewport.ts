import { useCallback, useEffect, useMemo, useRef, type RefObject } from 'react';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import { useViewStore } from '../state/view-store';
import { useCommand } from '../host/host-context';
import { fitAllWindow, panWindow, zoomWindow, type Window } from './time-window';

export interface Viewport {
  /** the visible time range, seconds from the file's start */
  window: Window;
  /** what fit-all shows (this rollout's own window, when it resumed samples) */
  fitAll: Window;
  setWindow(window: Window): void;
}

/**
 * The time window of a file's timeline, kept in the view store under `windowKey` so compared
 * timelines share it; the menu's zoom commands act on it.
 */
export function useViewport(
  file: FileSummary,
  windowKey: string,
  fitSec?: number,
  originSec = 0,
): Viewport {
  // the toolbar's window chip shows the whole file, a resumed rollout's earlier attempts included
  const own = fitSec === undefined ? file.rolloutWindow : undefined;
  const { globalStartSec, globalEndSec } = file;
  const fitAll = useMemo(
    () => fitAllWindow({ globalStartSec, globalEndSec, rolloutWindow: own }, fitSec),
    [globalStartSec, globalEndSec, own, fitSec],
  );
  return useStoredWindow(windowKey, fitAll, originSec);
}

/**
 * A timeline's window kept in the view store under `windowKey` (so it outlives a tab switch
 * and timelines sharing the key share it), each timeline shifted by its own `originSec`;
 * `fit` when none is stored. The menu's zoom commands act on it.
 */
export function useStoredWindow(windowKey: string, fit: Window, originSec = 0): Viewport {
  const stored = useViewStore((s) => s.windows[windowKey]);
  const store = useViewStore((s) => s.setWindow);
  const fitShown = useMemo(
    () => ({ startSec: fit.startSec + originSec, endSec: fit.endSec + originSec }),
    [fit, originSec],
  );
  // the stored window is shared by compared timelines, each shifted by its own origin
  const window = useMemo(() => {
    const w = stored ?? fit;
    return { startSec: w.startSec + originSec, endSec: w.endSec + originSec };
  }, [stored, fit, originSec]);
  const setWindow = useCallback(
    (w: Window) =>
      store(windowKey, { startSec: w.startSec - originSec, endSec: w.endSec - originSec }),
    [windowKey, store, originSec],
  );
  useCommand((command) => {
    if (command === 'zoom-in') setWindow(zoomWindow(window, 0.8, 0.5));
    if (command === 'zoom-out') setWindow(zoomWindow(window, 1.25, 0.5));
    if (command === 'zoom-fit') setWindow(fitShown);
  });
  return { window, fitAll: fitShown, setWindow };
}

/**
 * Ctrl+wheel and pinch (Chromium sends a pinch as ctrl+wheel) zoom the timeline around the
 * pointer; Shift+wheel and horizontal wheels pan. The listener is registered non-passive on the
 * scroller itself, so preventDefault works and the page never zooms.
 */
export function useWheelZoom(
  scroller: RefObject<HTMLElement | null>,
  canvas: RefObject<HTMLElement | null>,
  viewport: Viewport,
): void {
  const latest = useRef(viewport);
  latest.current = viewport;
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      const rect = canvas.current?.getBoundingClientRect();
      if (!rect || rect.width === 0) return;
      const { window, setWindow } = latest.current;
      const frac = Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width));
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault();
        setWindow(zoomWindow(window, Math.exp(event.deltaY * 0.002), frac));
      } else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
        event.preventDefault();
        const delta = event.shiftKey ? event.deltaY || event.deltaX : event.deltaX;
        setWindow(panWindow(window, delta / rect.width));
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [scroller, canvas]);
}
