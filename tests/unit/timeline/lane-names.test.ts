import { resolve } from 'node:path';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { describe, expect, it } from 'vitest';
import { buildStore } from '../../../src-main/core/store/build-store';
import { getRowViews } from '../../../src-main/core/store/row-views';
import type { Row } from '../../../src-main/core/model/row';
import { laneNames } from '../../../src-renderer/timeline/lane-names';
import { hitAt } from '../../../src-renderer/timeline/hit-test';
import { OTLP, SLIME, readJson } from '../../support/fixtures';

describe('lane names', () => {
  it('a slime row names each lane by its first span (rollout_small row 1, from slime’s cache)', () => {
    const { rows } = readJson<{ rows: Row[] }>(resolve(SLIME, 'rollout_small.pt.expected.json'));
    const view = getRowViews(buildStore({ rows: packRows(rows) }), [1])[0];
    // the cache's lanes: 0-2 the call chain, 3 the PD spans, 4 their phases (first: the queue)
    expect(laneNames(view)).toEqual([
      'generate_and_rm_group',
      'generate_and_rm',
      'sglang_generate',
      'sglang_pd_prefill',
      'sglang_pd_prefill_bootstrap_queue',
    ]);
  });

  it('a row whose items carry lane labels shows the labels; an events-only lane its event', () => {
    const row = {
      rowId: 0,
      laneCount: 3,
      items: [
        { index: 2, kind: 'event', name: 'sglang_pd_summary', startSec: 0.5, endSec: 0.5, lane: 2 },
        {
          index: 0,
          kind: 'span',
          name: 'decode Req 1',
          startSec: 0,
          endSec: 1,
          lane: 0,
          laneLabel: 'scheduler TP0 PP0 DP0',
        },
        { index: 1, kind: 'span', name: 'prefill', startSec: 0, endSec: 1, lane: 1 },
      ],
    } as unknown as Parameters<typeof laneNames>[0];
    // a lane of events only is named by its first event
    expect(laneNames(row)).toEqual(['scheduler TP0 PP0 DP0', 'prefill', 'sglang_pd_summary']);
    expect(OTLP).toContain('otlp');
  });
});

describe('hit-test', () => {
  it('prefers a marker over the bar under it, and misses outside every box', () => {
    const bar = { rowId: 1, index: 0, x0: 0, x1: 100, y0: 0, y1: 14, point: false };
    const marker = { rowId: 1, index: 3, x0: 45, x1: 55, y0: 1, y1: 13, point: true };
    expect(hitAt([bar, marker], 50, 7)).toBe(marker);
    expect(hitAt([bar, marker], 20, 7)).toBe(bar);
    expect(hitAt([bar, marker], 120, 7)).toBeNull();
    // before the marker in draw order or after it, the marker wins
    expect(hitAt([marker, bar], 50, 7)).toBe(marker);
  });

  it('in a collapsed row finds the PD span whose phases are painted over its request', () => {
    const request = { rowId: 1, index: 0, x0: 0, x1: 100, y0: 0, y1: 14, point: false };
    const pd = { rowId: 1, index: 2, x0: 40, x1: 60, y0: 0, y1: 14, point: false, pd: true };
    const marker = { rowId: 1, index: 3, x0: 45, x1: 55, y0: 1, y1: 13, point: true };
    expect(hitAt([request, pd], 50, 7)).toBe(pd);
    expect(hitAt([pd, request], 50, 7)).toBe(pd);
    expect(hitAt([request, pd], 20, 7)).toBe(request);
    expect(hitAt([request, pd, marker], 50, 7)).toBe(marker);
  });
});

describe('lane names of nested slices', () => {
  it('a thread whose slices nest is named on its first lane only; the next thread is named', () => {
    const span = (index: number, lane: number, laneLabel: string) => ({
      index,
      kind: 'span',
      name: `op ${index}`,
      startSec: 0,
      endSec: 1,
      lane,
      laneLabel,
    });
    const row = {
      rowId: 0,
      laneCount: 5,
      items: [
        span(0, 0, 'thread 1 (python)'),
        span(1, 1, 'thread 1 (python)'),
        span(2, 2, 'thread 1 (python)'),
        span(3, 3, 'GPU 0 stream 7'),
        span(4, 4, 'GPU 0 stream 8'),
      ],
    } as unknown as Parameters<typeof laneNames>[0];
    expect(laneNames(row)).toEqual([
      'thread 1 (python)',
      '',
      '',
      'GPU 0 stream 7',
      'GPU 0 stream 8',
    ]);
  });
});
