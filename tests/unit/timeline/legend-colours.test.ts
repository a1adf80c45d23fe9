import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import { FORMATS } from '../../../src-main/core/formats/registry';
import type { FileSummary, RowView } from '../../../src-main/core/api/trace-api';
import { drawTimeline, type DrawOptions } from '../../../src-renderer/timeline/draw-timeline';
import { legendEntries } from '../../../src-renderer/timeline/legend-entries';
import { phaseAt, phaseSegments } from '../../../src-renderer/timeline/pd-segments';
import { ingestInThread } from '../../support/in-thread-ingest';
import { SLIME } from '../../support/fixtures';
import { recordingContext, type DrawCall } from './recording-context';

// rollout_pd_legacy.pt (4 x 4 samples with [P]/[D] spans, tests/fixtures/slime/README.md) opened
// as the app opens it, its rows drawn expanded with the recording context: every legend swatch
// must be the colour its spans (or PD phase segments) are drawn in.
const THEME = {
  bg: '#ffffff',
  rowAlt: '#f4f4f4',
  grid: '#e0e0e0',
  fg: '#111111',
  fgMuted: '#666666',
  danger: '#d1242f',
  accent: '#2f6feb',
};

async function openPd(): Promise<{ file: FileSummary; rows: RowView[] }> {
  const service = new TraceService(ingestInThread(FORMATS));
  const path = resolve(SLIME, 'rollout_pd_legacy.pt');
  const result = await service.open({ openId: 'pd', sources: [{ kind: 'path', path }] });
  if (!result.ok) throw new Error('rollout_pd_legacy.pt did not open');
  const file = result.file;
  const rows = await service.getRows(
    file.fileId,
    Array.from({ length: file.rows }, (_, i) => i),
  );
  return { file, rows };
}

/** Draws every row expanded, one under another, the whole file in view. */
function drawAll(file: FileSummary, rows: RowView[]) {
  const { ctx, calls } = recordingContext();
  const options: DrawOptions = {
    width: 4000,
    height: 20_000,
    window: { startSec: 0, endSec: (file.globalEndSec ?? 0) - (file.globalStartSec ?? 0) },
    theme: THEME,
    hiddenNames: new Set(),
    highlightNames: null,
    selected: null,
  };
  let y = 0;
  const drawRows = rows.map((row) => {
    const at = y;
    y += row.laneCount * 16 + 6;
    return { row, y: at, expanded: true, shaded: false, dimmed: false };
  });
  const result = drawTimeline(ctx, drawRows, options);
  return { calls, hits: result.hits, scale: options.width / options.window.endSec };
}

const phasesColour = (role: 'prefill' | 'decode') =>
  legendEntries({ spanNames: [{ name: 'x [P]', count: 1 }] }).phases.find(
    (p) => p.role === role && p.phase === 'forward',
  )!.colour;

const fills = (calls: DrawCall[]) =>
  calls.filter(
    (c): c is Extract<DrawCall, { op: 'fillRect' }> => c.op === 'fillRect' && c.h === 14,
  );

describe('the legend against the drawing of rollout_pd_legacy.pt', () => {
  it('shows each span name in the colour its bars are drawn in', async () => {
    const { file, rows } = await openPd();
    const { calls, hits } = drawAll(file, rows);
    const { names } = legendEntries(file);
    expect(names.length).toBeGreaterThan(3);
    const bars = fills(calls);
    let checked = 0;
    for (const entry of names) {
      // the bars of this name (not PD spans, drawn as their phases; not ongoing spans, drawn
      // as a gradient from this colour)
      const boxes = hits.filter((h) => {
        const item = rows[h.rowId].items[h.index];
        return !h.point && item.name === entry.name && !item.pd && !item.ongoing;
      });
      checked += boxes.length;
      if (boxes.length === 0) continue;
      for (const box of boxes) {
        const bar = bars.find((b) => b.x === box.x0 && b.y === box.y0);
        expect(bar?.fill, entry.name).toBe(entry.colour);
      }
    }
    expect(checked).toBeGreaterThan(16);
    // a PD span's name: the swatch is the forward colour its tint and segments are drawn in
    for (const box of hits) {
      const item = rows[box.rowId].items[box.index];
      const entry = names.find((n) => n.name === item.name);
      if (!item.pd || !entry) continue;
      const forward = phasesColour(item.pd.role);
      expect(entry.colour).toBe(forward);
      expect(bars.some((b) => b.x === box.x0 && b.y === box.y0 && b.fill === `${forward}33`)).toBe(
        true,
      );
    }
  });

  it('shows each PD phase in the colour its segments are drawn in', async () => {
    const { file, rows } = await openPd();
    const { calls, hits, scale } = drawAll(file, rows);
    const { phases } = legendEntries(file);
    expect(phases.map((p) => `${p.role} ${p.phase}`)).toContain('decode forward');
    const bars = fills(calls);
    let checked = 0;
    for (const box of hits) {
      const item = rows[box.rowId].items[box.index];
      if (!item.pd) continue;
      for (const segment of phaseSegments(item)) {
        const x = box.x0 + (segment.startSec - item.startSec) * scale;
        const entry = phases.find((p) => p.role === item.pd!.role && p.phase === segment.phase);
        expect(entry, segment.phase).toBeDefined();
        expect(
          bars.some((b) => Math.abs(b.x - x) < 1e-6 && b.y === box.y0 && b.fill === entry!.colour),
          `${item.name} ${segment.phase}`,
        ).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('names the phase under a point of a PD span', async () => {
    const { rows } = await openPd();
    const decode = rows.flatMap((r) => r.items).find((i) => i.pd?.role === 'decode')!;
    const segments = phaseSegments(decode);
    expect(segments.length).toBeGreaterThan(1);
    for (const s of segments) {
      if (s.endSec <= s.startSec) continue;
      expect(phaseAt(decode, (s.startSec + s.endSec) / 2)?.phase).toBe(s.phase);
    }
    // past the last segment (phases shorter than the span) there is no phase
    const last = segments.at(-1)!;
    if (last.endSec < decode.endSec) expect(phaseAt(decode, decode.endSec - 1e-9)).toBeNull();
  });
});
