import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { getRowViews } from '../../../src-main/core/store/row-views';
import {
  fileLegendNames,
  legendEntries,
  summedBarCounts,
} from '../../../src-renderer/timeline/legend-entries';
import { pictureLegend } from '../../../src-renderer/timeline/timeline-picture';
import { FIXTURES, fixtureSource } from '../../support/fixtures';

/**
 * A file's timeline legend counts what the timeline draws as bars, as the run tab counts each
 * file (FileSummary.barCounts): spans by name, a GPU kernel by its kind. Its spanNames count
 * instant events too: slime's rollout_7 has 75 `sglang_pd_summary` events and no span of that
 * name, and counted them the legend gave a bar colour to markers drawn in none.
 */
const open = (path: string) => openTraceFile([fixtureSource(resolve(FIXTURES, path))]);

/** the bars every row draws, by what a legend lists them under, counted from the rows */
function drawnBars(trace: ReturnType<typeof open>): Map<string, number> {
  const rowIds = Array.from({ length: trace.summary.rows }, (_, i) => i);
  const bars = new Map<string, number>();
  for (const row of getRowViews(trace.store, rowIds))
    for (const item of row.items)
      if (item.kind === 'span') {
        const key = item.category ?? item.name;
        bars.set(key, (bars.get(key) ?? 0) + 1);
      }
  return bars;
}

const asMap = (names: { name: string; count: number }[]) =>
  new Map(names.map((n) => [n.name, n.count]));

describe("a single file's legend counts the bars it draws", () => {
  const rollout = open('slime/rollout_7.pt');

  it('every name with its drawn bars, and nothing drawn only as a marker', () => {
    const legend = fileLegendNames(rollout.summary);
    expect(asMap(legend)).toEqual(drawnBars(rollout));
    // the summary's every-item counts hold the instants the old legend listed
    const all = asMap(rollout.summary.spanNames);
    expect(all.get('sglang_pd_summary')).toBe(75);
    expect(asMap(legend).has('sglang_pd_summary')).toBe(false);
    expect(legend.some((n) => n.name === 'tool_output')).toBe(false);
  });

  it('the legend shown and the picture list those counts, most first', () => {
    const drawn = drawnBars(rollout);
    const { names } = legendEntries({ spanNames: fileLegendNames(rollout.summary) });
    expect(names.length).toBeGreaterThan(3);
    for (const n of names) expect(n.count, n.name).toBe(drawn.get(n.name));
    const counts = names.map((n) => n.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const picture = pictureLegend({ spanNames: fileLegendNames(rollout.summary) }, new Set());
    expect(picture.some((e) => e.label.startsWith('sglang_pd_summary'))).toBe(false);
    expect(picture[0].label).toBe(`${names[0].name} ${names[0].count}`);
  });

  it("a GPU profile's legend: its kernels by kind first, each kind's bars", () => {
    const gpu = open('run_gpu/rank-0.trace.json.gz');
    const legend = fileLegendNames(gpu.summary);
    // run_gpu/README.md: 1154 kernels (10 NCCL), 40 memcpys and 10 memsets
    expect(legend.slice(0, 3)).toEqual([
      { name: 'computation', count: 1144, category: true },
      { name: 'memory', count: 50, category: true },
      { name: 'communication', count: 10, category: true },
    ]);
    expect(asMap(legend)).toEqual(drawnBars(gpu));
  });

  it('two compared files: the counts of both, added per name', () => {
    const other = open('slime/rollout_8.pt');
    const both = asMap(summedBarCounts([rollout.summary.barCounts, other.summary.barCounts]));
    const a = drawnBars(rollout);
    const b = drawnBars(other);
    for (const name of new Set([...a.keys(), ...b.keys()]))
      expect(both.get(name), name).toBe((a.get(name) ?? 0) + (b.get(name) ?? 0));
    expect(both.size).toBe(new Set([...a.keys(), ...b.keys()]).size);
  });
});
