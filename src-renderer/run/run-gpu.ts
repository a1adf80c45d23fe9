import type { FileSummary, RowView } from '../../src-main/core/api/trace-api';
import { shiftRow } from '../timeline/lane-group';
import type { GpuProfileLanes } from './run-lanes';

// A run's GPU profiles on its clock. A rank whose trace has baseTimeNanoseconds is on the epoch
// clock, as the run's other files are: moved like them. A rank on its own clock cannot be
// placed from the data: its start is put at a hand-set offset from the run's start (0 until the
// user moves it), the ranks of one file keeping their places relative to each other.

/** Each rank of a GPU profile file with its clock (the summary's figures say which). */
export function gpuRankClocks(
  file: Pick<FileSummary, 'gpuProfile'>,
): { label: string; traceId: string; clock: 'epoch' | 'own' }[] {
  return (file.gpuProfile?.ranks ?? []).map((r) => ({
    label: r.label,
    traceId: r.traceId,
    clock: r.clock,
  }));
}

/**
 * A GPU profile's rank rows (as fetched: seconds from the file's start) on the run's clock:
 * `fileShiftSec` moves an epoch rank (the file's start minus the run's zero), `offsetSec` is
 * where the own-clock ranks' earliest start goes.
 */
export function gpuProfileLanes(input: {
  file: number;
  fileName: string;
  summary: Pick<FileSummary, 'gpuProfile' | 'barCounts'>;
  rows: readonly RowView[];
  fileShiftSec: number;
  offsetSec: number;
  toggled: ReadonlySet<string>;
  fit?: GpuProfileLanes['fit'];
}): GpuProfileLanes {
  const shifts = gpuRankShifts(input);
  return {
    file: input.file,
    fileName: input.fileName,
    offsetSec: input.offsetSec,
    toggled: input.toggled,
    ...(input.fit ? { fit: input.fit } : {}),
    barCounts: input.summary.barCounts,
    ranks: input.rows.map((row) => {
      const { clock, bySec } = shifts.get(row.rowId)!;
      return { row: shiftRow(row, bySec), clock };
    }),
  };
}

/**
 * Where each rank row of a GPU profile goes on the run's clock, by row id: its clock (epoch or
 * its own) and the seconds it is moved by (see gpuProfileLanes).
 */
export function gpuRankShifts(input: {
  summary: Pick<FileSummary, 'gpuProfile'>;
  rows: readonly RowView[];
  fileShiftSec: number;
  offsetSec: number;
}): Map<number, { clock: 'epoch' | 'own'; bySec: number }> {
  const clocks = new Map(gpuRankClocks(input.summary).map((r) => [r.traceId, r.clock]));
  const clockOf = (row: RowView) => (row.traceId && clocks.get(row.traceId)) || 'own';
  let ownStart = Infinity;
  for (const row of input.rows)
    if (clockOf(row) === 'own') ownStart = Math.min(ownStart, row.startSec);
  const shifts = new Map<number, { clock: 'epoch' | 'own'; bySec: number }>();
  for (const row of input.rows) {
    const clock = clockOf(row);
    shifts.set(row.rowId, {
      clock,
      bySec: clock === 'epoch' ? input.fileShiftSec : input.offsetSec - ownStart,
    });
  }
  return shifts;
}
