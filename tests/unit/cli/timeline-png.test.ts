import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { writeTimelinePng } from '../../../src-main/cli/timeline-png';
import type { Row } from '../../../src-main/core/model/row';
import { LANE_HEIGHT, ROW_PADDING } from '../../../src-renderer/timeline/row-layout';
import { fitWindow } from '../../../src-renderer/timeline/time-window';
import { FIXTURES, SLIME, readJson } from '../../support/fixtures';

const DUMP = resolve(SLIME, 'rollout_small.pt');
// the rows as slime's own viewer code made them (tests/fixtures/slime/README.md)
const expected = readJson<{ rows: Row[]; global_start: number; global_end: number }>(
  resolve(SLIME, 'rollout_small.pt.expected.json'),
);
const out = (name: string) => join(mkdtempSync(join(tmpdir(), 'timeline-png-')), name);

describe('writeTimelinePng (the headless timeline picture)', () => {
  it('writes a PNG twice the size asked, of the app\'s "fit all" window by default', async () => {
    const path = out('all.png');
    const result = await writeTimelinePng({ path: DUMP, out: path, width: 1000, height: 500 });
    const png = PNG.sync.read(readFileSync(path));
    expect([png.width, png.height]).toEqual([2000, 1000]);
    expect([result.width, result.height]).toEqual([2000, 1000]);
    expect(result.window).toEqual(fitWindow(0, expected.global_end - expected.global_start));
    expect(result.rows).toBe(expected.rows.length);
  });

  it('draws each row where its times put it in the window asked', async () => {
    const path = out('window.png');
    const window = { startSec: 0, endSec: 10 };
    const result = await writeTimelinePng({
      path: DUMP,
      out: path,
      window,
      width: 1000,
      height: 500,
    });
    const png = PNG.sync.read(readFileSync(path));
    const pixel = (x: number, y: number) => {
      const at = (Math.round(y * 2) * png.width + Math.round(x * 2)) * 4;
      return [png.data[at], png.data[at + 1], png.data[at + 2]];
    };
    const background = pixel(result.plot.x + result.plot.width - 2, result.plot.y + 2);
    const { plot } = result;
    const xOf = (sec: number) => plot.x + ((sec - window.startSec) / 10) * plot.width;
    let checked = 0;
    // rows are collapsed (16 rows of up to 5 lanes do not fit 500 px): one lane each, in order
    for (const [index, row] of expected.rows.entries()) {
      const start = row.start - expected.global_start;
      const end = row.end - expected.global_start;
      if (end > 9) continue;
      const mid = plot.y + index * (LANE_HEIGHT + ROW_PADDING) + ROW_PADDING / 2 + LANE_HEIGHT / 2;
      const shade = pixel(xOf(end) + 20, mid);
      expect(pixel(xOf((start + end) / 2), mid), `row ${index} inside`).not.toEqual(shade);
      expect(pixel(xOf(start) - 3, mid), `row ${index} before`).toEqual(shade);
      expect([background, pixel(xOf(9.5), mid)]).toContainEqual(shade);
      checked++;
    }
    expect(checked).toBeGreaterThan(8);
  });

  it('says which file and what is wrong when it cannot draw', async () => {
    const broken = out('broken.pt');
    writeFileSync(broken, 'not a trace at all');
    await expect(writeTimelinePng({ path: broken, out: out('x.png') })).rejects.toThrow(
      /broken\.pt: .*\[[\w/-]+\]/,
    );
    await expect(
      writeTimelinePng({ path: DUMP, out: out('y.png'), window: { startSec: 5, endSec: 1 } }),
    ).rejects.toThrow(/rollout_small\.pt: the window 5-1 is empty or reversed \[picture\/window\]/);
  });
});

describe('writeTimelinePng of a GPU rank taller than the picture', () => {
  it("shows the rank's threads and streams, as the app opens it, not one collapsed lane", async () => {
    const path = out('rank.png');
    // rank 0 of the gpu fixture holds 25 lanes: 25 x 16 px do not fit a 300 px picture
    const result = await writeTimelinePng({
      path: resolve(FIXTURES, 'gpu/rank-0.json.gz'),
      out: path,
      width: 1000,
      height: 300,
    });
    const png = PNG.sync.read(readFileSync(path));
    const { plot } = result;
    // pixels (in the picture's 2x) that differ from the plot's background along a lane's middle
    const inked = (lane: number) => {
      const y = Math.round((plot.y + ROW_PADDING / 2 + (lane + 0.5) * LANE_HEIGHT) * 2);
      const background = png.data.subarray(
        (y * png.width + Math.round((plot.x + plot.width - 2) * 2)) * 4,
      );
      let count = 0;
      for (let x = Math.round(plot.x * 2); x < Math.round((plot.x + plot.width) * 2); x++) {
        const at = (y * png.width + x) * 4;
        if ([0, 1, 2].some((c) => png.data[at + c] !== background[c])) count++;
      }
      return count;
    };
    // lanes 2 to 8 (CPU ops nested under ProfilerStep): drawn, where a collapsed row has none
    for (let lane = 2; lane < 9; lane++) expect(inked(lane), `lane ${lane}`).toBeGreaterThan(0);
  });
});
