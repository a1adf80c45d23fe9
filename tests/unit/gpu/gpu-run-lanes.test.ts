import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileSummary, RunResult } from '../../../src-main/core/api/trace-api';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { runDigest } from '../../../src-main/core/run/run-digest';
import { getRowViews } from '../../../src-main/core/store/row-views';
import { gpuProfileLanes } from '../../../src-renderer/run/run-gpu';
import { laneKeyOf, parseLaneKey, runSelectionOf } from '../../../src-renderer/run/run-lanes';
import { onEpochClock, runExtent } from '../../../src-renderer/run/run-model';
import { drawTimeline } from '../../../src-renderer/timeline/draw-timeline';
import { laneSpanNames } from '../../../src-renderer/timeline/lane-group';
import { fileLegendNames } from '../../../src-renderer/timeline/legend-entries';
import { colourOfItem } from '../../../src-renderer/timeline/span-colours';
import { FIXTURES, fixtureSource } from '../../support/fixtures';
import { recordingContext } from '../timeline/recording-context';
import { gpuLaneGroupOf } from '../../support/gpu-lane-group';

/**
 * A run's GPU profiles (issue 45) on real traces: run_gpu/rank-0 (baseTimeNanoseconds, placed
 * inside rollout 0 of run/, run_gpu/README.md) and gpu/rank-1 (no baseTimeNanoseconds: its own
 * clock). Counts from gpu/README.md: rank 0 has 1154 kernels (10 NCCL), 40 memcpys, 10 memsets.
 */
const open = (path: string) => openTraceFile([fixtureSource(resolve(FIXTURES, path))]);
const epoch = open('run_gpu/rank-0.trace.json.gz');
const own = open('gpu/rank-1.json.gz');
const epochRow = getRowViews(epoch.store, [0])[0];
const ownRow = getRowViews(own.store, [0])[0];
const summaryOf = (opened: typeof epoch) => ({ ...opened.summary, fileId: 'f', path: null });

describe('a Kineto trace with baseTimeNanoseconds is on the epoch clock', () => {
  it('its events start where the base puts them: 1787648406.5 s', () => {
    expect(epoch.summary.gpuProfile!.ranks.map((r) => [r.label, r.clock])).toEqual([
      ['rank 0', 'epoch'],
    ]);
    expect(epoch.summary.globalStartSec).toBeCloseTo(1787648406.5, 6);
    expect(own.summary.gpuProfile!.ranks[0].clock).toBe('own');
  });
  it('a run gives it the role gpu: lanes, joined to nothing', () => {
    const digest = runDigest({ ...epoch, summary: epoch.summary });
    expect(digest.role).toBe('gpu');
    expect(digest.samples).toEqual([]);
  });
});

describe('kernels carry their kind through the store', () => {
  it('every GPU event of rank 0 has a kind; no CPU op has one', () => {
    const kinds = new Map<string, number>();
    for (const item of epochRow.items)
      if (item.category) kinds.set(item.category, (kinds.get(item.category) ?? 0) + 1);
    expect(Object.fromEntries(kinds)).toEqual({ computation: 1144, communication: 10, memory: 50 });
    const launch = epochRow.items.find((i) => i.name === 'cudaLaunchKernel')!;
    expect(launch.category).toBeUndefined();
    // NCCL's kernels are communication, whatever stream they run on
    for (const item of epochRow.items.filter((i) => /^ncclKernel/.test(i.name)))
      expect(item.category).toBe('communication');
  });
  it('the legend lists the kinds (most first) in their bar colours, then the other names', () => {
    const names = laneSpanNames([{ id: 'g', title: 'g', rows: [laneRow(epochRow)] }]);
    expect(names.slice(0, 3)).toEqual([
      { name: 'computation', count: 1144, category: true },
      { name: 'memory', count: 50, category: true },
      { name: 'communication', count: 10, category: true },
    ]);
    expect(names.some((n) => /^ncclKernel/.test(n.name))).toBe(false);
    expect(names[3]).toEqual({ name: 'cudaLaunchKernel', count: 1154 });
    const colours = ['computation', 'communication', 'memory'].map((c) =>
      colourOfItem({ name: 'x', category: c }),
    );
    expect(new Set(colours).size).toBe(3);
    // the file's own legend folds the summary's kernel names into the same kinds
    const fileNames = fileLegendNames(summaryOf(epoch));
    expect(fileNames.filter((n) => n.category)).toEqual(names.slice(0, 3));
    const kernelNames = new Set(epoch.summary.gpuProfile!.kernels.map((k) => k.name));
    expect(fileNames.some((n) => !n.category && kernelNames.has(n.name))).toBe(false);
  });
});

describe('launch-to-kernel flows: drawn when asked', () => {
  const window = { startSec: epochRow.startSec, endSec: epochRow.endSec };
  const draw = (hovered: { rowId: number; index: number } | null, hidden = new Set<string>()) =>
    drawTimeline(
      recordingContext().ctx,
      [{ row: epochRow, y: 0, expanded: true, shaded: false, dimmed: false }],
      {
        width: 4000,
        height: 2000,
        window,
        theme: {
          bg: '#fff',
          rowAlt: '#eee',
          grid: '#ddd',
          fg: '#000',
          fgMuted: '#666',
          danger: '#f00',
          accent: '#00f',
        },
        hiddenNames: hidden,
        highlightNames: null,
        selected: null,
        hovered,
      },
    ).stats.get(epochRow.rowId)!;
  it('a rank draws no launch arrow unasked; the hovered kernel its own', () => {
    const linked = epochRow.items.filter((i) => i.links && i.category);
    expect(linked.length).toBeGreaterThan(1000);
    expect(draw(null).links).toBe(0);
    const kernel = linked[0];
    expect(epochRow.items[kernel.links![0]].name).toMatch(/^cuda/);
    expect(draw({ rowId: epochRow.rowId, index: kernel.index }).links).toBe(1);
    // hovering the launch draws its arrow too
    expect(draw({ rowId: epochRow.rowId, index: kernel.links![0] }).links).toBeGreaterThanOrEqual(
      1,
    );
  });
  it("hiding a kind in the legend hides its kernels: the 10 NCCL kernels' bars go", () => {
    const all = draw(null).bars;
    expect(draw(null, new Set(['communication'])).bars).toBe(all - 10);
    expect(draw(null, new Set(['memory'])).bars).toBe(all - 50);
  });
});

function laneRow(row: typeof epochRow) {
  return { key: 'k', label: 'r', laneCount: row.laneCount, row, expanded: true };
}

describe("a run's GPU profile on its clock", () => {
  const zero = 1787648404; // a run's zero: its earliest file's start
  it('an epoch rank moves as the run moves every file; an own-clock rank goes to its offset', () => {
    const placed = gpuProfileLanes({
      file: 5,
      fileName: 'profile/rank-0.trace.json.gz',
      summary: epoch.summary,
      rows: [epochRow],
      fileShiftSec: epoch.summary.globalStartSec! - zero,
      offsetSec: 99,
      toggled: new Set(),
    });
    expect(placed.ranks[0].clock).toBe('epoch');
    expect(placed.ranks[0].row.startSec).toBeCloseTo(2.5, 6);
    const shifted = gpuProfileLanes({
      file: 6,
      fileName: 'profile/rank-1.json.gz',
      summary: own.summary,
      rows: [ownRow],
      fileShiftSec: own.summary.globalStartSec! - zero,
      offsetSec: 2,
      toggled: new Set(),
    });
    expect(shifted.ranks[0].clock).toBe('own');
    expect(shifted.ranks[0].row.startSec).toBeCloseTo(2, 9);
    // its items keep their places relative to the row
    const first = ownRow.items[0];
    expect(shifted.ranks[0].row.items[0].startSec - 2).toBeCloseTo(
      first.startSec - ownRow.startSec,
      9,
    );
  });
  it("an own-clock profile is left out of the run's extent; an epoch one counts", () => {
    const entry = (file: Partial<FileSummary>, role: RunResult['files'][number]['role']) => ({
      file: file as FileSummary,
      role,
    });
    const samples = entry(
      { globalStartSec: 1787648405.07, globalEndSec: 1787648410.573 },
      'samples',
    );
    const ownGpu = entry(summaryOf(own), 'gpu');
    const epochGpu = entry(summaryOf(epoch), 'gpu');
    expect(onEpochClock(ownGpu)).toBe(false);
    expect(onEpochClock(epochGpu)).toBe(true);
    const extent = (files: (typeof samples)[]) => runExtent({ files } as RunResult);
    expect(extent([samples, ownGpu])).toEqual({ startSec: 1787648405.07, endSec: 1787648410.573 });
    expect(extent([samples, epochGpu]).startSec).toBe(1787648405.07);
  });
  it('the lanes: a group per profile after the samples, its clock said; a click selects a GPU event', () => {
    const gpu = gpuProfileLanes({
      file: 6,
      fileName: 'profile/rank-1.json.gz',
      summary: own.summary,
      rows: [ownRow],
      fileShiftSec: 0,
      offsetSec: 1.25,
      toggled: new Set(),
    });
    const last = gpuLaneGroupOf(gpu);
    expect(last).toMatchObject({ id: 'gpu-6', shiftable: true });
    expect(last.note).toContain('own clock +1.250 s');
    expect(last.rows.map((r) => [r.key, r.label, r.detail, r.mark])).toEqual([
      [`g:6:${ownRow.rowId}`, 'rank 1', 'own clock', 'own'],
    ]);
    expect(parseLaneKey(last.rows[0].key)?.kind).toBe('g');
    const selection = runSelectionOf(last.rows[0].key, 12)!;
    expect(selection).toEqual({ kind: 'gpu', file: 6, rowId: ownRow.rowId, index: 12 });
    expect(laneKeyOf(selection)).toBe(last.rows[0].key);
  });
});
