import { useEffect, useRef } from 'react';

export interface TimelineKeyActions {
  zoom(factor: number): void;
  pan(frac: number): void;
  fitAll(): void;
  fitSelection(): void;
  clearSelection(): void;
  moveSelection(step: number): void;
  toggleSelectedRow(): boolean;
}

/** W/S zoom, A/D pan, 0 fits all, F fits the selection, arrows between rows, Enter toggles. */
export function useTimelineKeys(enabled: boolean, actions: TimelineKeyActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const a = latest.current;
      const key = event.key.toLowerCase();
      if (key === 'w') a.zoom(0.8);
      else if (key === 's') a.zoom(1.25);
      else if (key === 'a') a.pan(-0.15);
      else if (key === 'd') a.pan(0.15);
      else if (key === '0') a.fitAll();
      else if (key === 'f') a.fitSelection();
      else if (key === 'escape') a.clearSelection();
      else if (key === 'arrowdown' || key === 'arrowup')
        a.moveSelection(key === 'arrowdown' ? 1 : -1);
      else if (key !== 'enter' || !a.toggleSelectedRow()) return;
      event.preventDefault();
    };
    globalThis.addEventListener('keydown', onKey);
    return () => globalThis.removeEventListener('keydown', onKey);
  }, [enabled]);
}
