import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { RowView, RowWindow, RunResult } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { WINDOW_REST_MS, windowCovered } from '../host/row-window';
import type { Window } from '../timeline/time-window';
import { gpuRankShifts } from './run-gpu';

/**
 * A run's GPU rank rows too big to send whole (RowView.detail) asked again for the part of the
 * run the plot shows, once its window rests: the plot's window is on the run's clock, each rank
 * row's on its file's, moved as gpuProfileLanes moves it. One ask per row at a time. Whether
 * every rank is as fine as the window asks (what the run view shows as data-gpu-detail).
 */
export function useGpuRowDetail(input: {
  host: TraceHost;
  result: RunResult;
  gpuRows: Map<number, RowView[]>;
  setGpuRows: Dispatch<SetStateAction<Map<number, RowView[]>>>;
  /** the plot's window on the run's clock and its canvas' width; null before it is measured */
  shown: { window: Window; width: number } | null;
  shiftOf(file: number): number;
  offsets: Map<number, number>;
}): boolean {
  const { host, result, gpuRows, setGpuRows, shown, shiftOf, offsets } = input;
  const asking = useRef(new Set<string>());
  /** rows whose last ask failed: they keep what they were sent, and are not asked again */
  const failed = useRef(new Set<string>());
  const [settled, setSettled] = useState(true);
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (!shown) return;
    const stale: { file: number; rowId: number; key: string; window: RowWindow }[] = [];
    for (const [file, rows] of gpuRows) {
      const shifts = gpuRankShifts({
        summary: result.files[file].file,
        rows,
        fileShiftSec: shiftOf(file),
        offsetSec: offsets.get(file) ?? 0,
      });
      for (const row of rows) {
        const key = `${file}:${row.rowId}`;
        if (!row.detail || asking.current.has(key) || failed.current.has(key)) continue;
        const by = shifts.get(row.rowId)!.bySec;
        const window = {
          startSec: shown.window.startSec - by,
          endSec: shown.window.endSec - by,
          pixels: Math.max(100, shown.width),
        };
        if (!windowCovered(row.detail, window)) stale.push({ file, rowId: row.rowId, key, window });
      }
    }
    setSettled(stale.length === 0 && asking.current.size === 0);
    if (stale.length === 0) return;
    const timer = setTimeout(() => {
      for (const { file, rowId, key, window } of stale) {
        asking.current.add(key);
        host.api.getRows(result.files[file].file.fileId, [rowId], window).then(
          ([got]) => {
            asking.current.delete(key);
            if (!got) failed.current.add(key);
            setGpuRows((old) => {
              const ranks = old.get(file);
              if (!ranks || !got) return new Map(old);
              return new Map(old).set(
                file,
                ranks.map((r) => (r.rowId === got.rowId ? got : r)),
              );
            });
          },
          () => {
            asking.current.delete(key);
            failed.current.add(key);
            setFailures((n) => n + 1);
          },
        );
      }
    }, WINDOW_REST_MS);
    return () => clearTimeout(timer);
  }, [host, result, gpuRows, setGpuRows, shown, shiftOf, offsets, failures]);
  return settled;
}
