import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { writeRunTimelinePng } from '../../../src-main/cli/run-timeline-png';
import { writeTimelinePng } from '../../../src-main/cli/timeline-png';
import { findRunFiles } from '../../../src-main/ingest/run-files';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { colourForName } from '../../../src-renderer/timeline/span-colours';
import { fixtureSource } from '../../support/fixtures';
import { LIGHT_THEME } from '../../../src-renderer/timeline/timeline-picture';

// `report RUN --png`: the run tab's timeline (trainer ranks above the samples, the rollout
// bands above the axis), not one file's. The run: tests/fixtures/run/README.md.
const RUN = resolve(__dirname, '../../fixtures/run');
const dir = mkdtempSync(join(tmpdir(), 'run-png-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runPng = (path: string, out: string, window?: { startSec: number; endSec: number }) =>
  writeRunTimelinePng(
    { path, files: findRunFiles([path]) },
    { out: join(dir, out), width: 1000, height: 600, window },
  );
const read = (name: string) => PNG.sync.read(readFileSync(join(dir, name)));

/** the names of what a file's rows draw (spans, events) */
const itemNames = (path: string) =>
  new Set(
    openTraceFile([fixtureSource(path)]).rows.flatMap((row) =>
      unpackRow(row).items.map((i) => i.name),
    ),
  );

/**
 * The colours of trainer records that none of the dump's items is drawn in (names hash into a
 * palette: the test must not hang on which name shares whose colour)
 */
function trainerOnlyColours(): string[] {
  const dump = new Set([...itemNames(join(RUN, 'rollout_0.pt'))].map(colourForName));
  const trainer = itemNames(join(RUN, 'comm_timeline/slime-trainer-0.jsonl'));
  return [...new Set([...trainer].map(colourForName))].filter((c) => !dump.has(c));
}

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** Pixels within `tolerance` of `colour` (a bar's inside: its edges are blended) in rows top..bottom. */
function pixelsOf(png: PNG, colour: number[], top = 0, bottom = png.height, tolerance = 0): number {
  let count = 0;
  for (let y = top; y < bottom; y++)
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      if (colour.every((c, k) => Math.abs(png.data[i + k] - c) <= tolerance)) count++;
    }
  return count;
}

describe('report RUN --png (the run tab, headless)', () => {
  it("draws the run's lanes at 2x: trainer ranks and samples, not one file's rows", async () => {
    const run = await runPng(RUN, 'run.png');
    const png = read('run.png');
    expect([png.width, png.height]).toEqual([2000, 1200]);
    expect([run.width, run.height]).toEqual([2000, 1200]);
    expect(run.skipped).toEqual([]);
    // the same size of one of its dumps, as `report FILE --png` draws it
    const one = await writeTimelinePng({
      path: join(RUN, 'rollout_0.pt'),
      out: join(dir, 'one.png'),
      width: 1000,
      height: 600,
    });
    const file = read('one.png');
    // the trainer's bars are the run's only: none in the dump's picture, and only on the plot,
    // below the axis
    const plotTop = Math.round(run.plot.y * 2);
    const trainerPixels = trainerOnlyColours().map((hex) => ({
      run: pixelsOf(png, rgb(hex), plotTop),
      file: pixelsOf(file, rgb(hex)),
    }));
    expect(Math.max(...trainerPixels.map((p) => p.run))).toBeGreaterThan(2000);
    expect(trainerPixels.map((p) => p.file)).toEqual(trainerPixels.map(() => 0));
    // the rollout bands above the axis: the light theme's accent at 0.18 over its background
    // (run.css), as many pixels as two bands' boxes less their labels
    const band = rgb(LIGHT_THEME.accent).map((c, k) => 0.18 * c + 0.82 * rgb(LIGHT_THEME.bg)[k]);
    expect(pixelsOf(png, band, 0, plotTop, 2)).toBeGreaterThan(2000);
    expect(pixelsOf(file, band, 0, Math.round(one.plot.y * 2), 2)).toBe(0);
    // the plot starts lower (the band strip) and its rows differ from the dump's
    expect(run.plot.y).toBeGreaterThan(one.plot.y);
    let rowsDiffer = 0;
    const rows = Math.min(png.height - plotTop, file.height - Math.round(one.plot.y * 2));
    for (let y = 0; y < rows; y += 8) {
      const a = png.data.subarray((plotTop + y) * png.width * 4, (plotTop + y + 1) * png.width * 4);
      const at = Math.round(one.plot.y * 2) + y;
      const b = file.data.subarray(at * file.width * 4, (at + 1) * file.width * 4);
      if (!a.equals(b)) rowsDiffer++;
    }
    expect(rowsDiffer / Math.ceil(rows / 8)).toBeGreaterThan(0.5);
  });

  it('draws the window asked, on the run clock, and refuses an empty one naming the run', async () => {
    const made = await runPng(RUN, 'window.png', { startSec: 30, endSec: 40 });
    expect(made.window).toEqual({ startSec: 30, endSec: 40 });
    await expect(runPng(RUN, 'x.png', { startSec: 5, endSec: 1 })).rejects.toThrow(
      /run: the window 5-1 is empty or reversed \[picture\/window\]/,
    );
  });

  it('leaves out a file it cannot open, saying which and why, and draws the rest', async () => {
    const copy = join(dir, 'with-broken');
    cpSync(RUN, copy, { recursive: true });
    // a dump cut off halfway: sniffed as a dump, refused when read (its ZIP has no directory)
    const dump = readFileSync(join(RUN, 'rollout_1.pt'));
    writeFileSync(join(copy, 'rollout_9.pt'), dump.subarray(0, dump.length >> 1));
    const made = await runPng(copy, 'broken.png');
    expect(made.skipped).toHaveLength(1);
    expect(made.skipped?.[0]).toMatch(/rollout_9\.pt: .*\[[\w/-]+\]/);
    const train = rgb(colourForName('train_forward_backward'));
    expect(pixelsOf(read('broken.png'), train)).toBeGreaterThan(2000);
  });
});
