import { useEffect, useRef } from 'react';
import { keyZoomFactor } from './time-window';

export interface TimelineKeyActions {
  /** zoom by `factor` (< 1 zooms in) at the pointer, or the middle when it is elsewhere */
  zoom(factor: number): void;
  pan(frac: number): void;
  fitAll(): void;
  fitSelection(): void;
  clearSelection(): void;
  moveSelection(step: number): void;
  /** the previous or next item of the selected row */
  moveItem(step: number): void;
  toggleSelectedRow(): boolean;
}

/**
 * W/S zoom (faster while held), A/D pan, 0 fits all, F fits the selection (or all), up/down
 * between rows, left/right between a row's items, Escape clears, Enter toggles.
 */
export function useTimelineKeys(enabled: boolean, actions: TimelineKeyActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    if (!enabled) return;
    // repeats of the zoom key held now: each zooms more than the last
    let held = { key: '', repeats: 0 };
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === held.key) held = { key: '', repeats: 0 };
    };
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      // typing is never a timeline key: form fields, and editors that are contenteditable
      // (the Query panel's CodeMirror, over a run tab's hidden timeline)
      if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      if (target?.isContentEditable) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const a = latest.current;
      const key = event.key.toLowerCase();
      if (key === 'w' || key === 's') {
        held =
          held.key === key && event.repeat
            ? { key, repeats: held.repeats + 1 }
            : { key, repeats: 0 };
        a.zoom(keyZoomFactor(key === 'w', held.repeats));
      } else if (key === 'a') a.pan(-0.15);
      else if (key === 'd') a.pan(0.15);
      else if (key === '0') a.fitAll();
      else if (key === 'f') a.fitSelection();
      else if (key === 'escape') a.clearSelection();
      else if (key === 'arrowdown' || key === 'arrowup')
        a.moveSelection(key === 'arrowdown' ? 1 : -1);
      else if (key === 'arrowleft' || key === 'arrowright')
        a.moveItem(key === 'arrowright' ? 1 : -1);
      else if (key !== 'enter' || !a.toggleSelectedRow()) return;
      event.preventDefault();
    };
    globalThis.addEventListener('keydown', onKey);
    globalThis.addEventListener('keyup', onKeyUp);
    return () => {
      globalThis.removeEventListener('keydown', onKey);
      globalThis.removeEventListener('keyup', onKeyUp);
    };
  }, [enabled]);
}
