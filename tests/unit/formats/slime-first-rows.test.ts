import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import { readSlimeDump } from '../../../src-main/core/formats/slime/read-slime-dump';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { buildRows } from '../../../src-main/core/rows/build-rows';
import { buildPdView } from '../../../src-main/core/rows/pd-lanes';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { FIXTURES } from '../../support/fixtures';
import { writeSlimeDump } from '../../bench/slime-dump-writer.mjs';

// Issue 50: a dump's first rows are shown once its first 64 samples are read, not its first
// batch of a thousand (ten megabytes of slime's samples, a thousand rows built cold). The dump:
// rollout_small.pt's samples (made by slime's own code) written again 20 times over, one batch.

const dir = mkdtempSync(join(tmpdir(), 'first-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SAMPLES = 320;
const path = join(dir, 'rollout_first.pt');
writeSlimeDump(path, Infinity, 0, SAMPLES, {
  realSamples: [join(FIXTURES, 'slime', 'rollout_small.pt')],
});

describe('a dump’s first rows, before its first batch ends', () => {
  it('are previewed after 64 samples, then with the batch; the rows a plain read builds', () => {
    const previews: number[] = [];
    const trace = openTraceFile([openFileSource(path)], {
      onPreview: (preview) => previews.push(preview.rows.length),
    });
    expect(previews[0]).toBe(64);
    expect(previews.at(-1)).toBe(SAMPLES);
    const plain = readSlimeDump(openFileSource(path)).samples;
    expect(plain).toHaveLength(SAMPLES);
    const built = buildRows(plain).rows.map((row) => buildPdView(row));
    expect(trace.rows.map(unpackRow)).toEqual(built);
  });

  it('lets the samples after the first 64 go, read again from the file when asked', () => {
    const trace = openTraceFile([openFileSource(path)]);
    const plain = readSlimeDump(openFileSource(path)).samples;
    const source = openFileSource(path);
    let reads = 0;
    const counting = {
      ...source,
      read: (...args: Parameters<typeof source.read>) => (reads++, source.read(...args)),
    };
    for (const index of [0, 63, 64, 200, SAMPLES - 1]) {
      const before = reads;
      // as details show a sample: its keys but the trace (the reader's depth marks left out)
      const fields = Object.fromEntries(
        Object.entries(plain[index] as Record<string, unknown>).filter(([k]) => k !== 'trace'),
      );
      expect(trace.samples.read(index, (use) => use(counting))).toEqual(fields);
      expect(reads > before).toBe(index >= 64);
    }
  });
});
