import { useEffect, useState } from 'react';

/**
 * False on the first render and true once the frame it made has been painted: what a view
 * shows first goes into that frame, what can wait (charts below the first screen) into the
 * next. A view's first frame then holds only what the user sees at once: the perf tab's
 * twenty histograms, all below its first screen, made its first frame wait 60-90 ms longer.
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // the frame's callbacks run before it is painted; a task queued there runs after it
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return painted;
}
