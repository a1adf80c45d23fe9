import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import { validateCall } from '../../../src-main/api/validate-call';
import { BadCallError } from '../../../src-main/core/api/call-errors';
import type { RowFacts, RowOrder, RowView } from '../../../src-main/core/api/trace-api';
import { serveCaller } from '../../support/serve-call';
import { FORMATS } from '../../../src-main/core/formats/registry';
import type { Row } from '../../../src-main/core/model/row';
import { startServeMode, type ServeHandle } from '../../../src-main/serve/serve-mode';
import { shownOrder } from '../../../src-renderer/host/shown-order';
import { SLIME, readJson } from '../../support/fixtures';
import { ingestInThread } from '../../support/in-thread-ingest';

// getRowFacts (every row's lanes, start and end, once per store) and queryRows (ids only):
// argument checks shared by both transports, then the real service behind serve mode's HTTP.

describe('argument checks', () => {
  it('getRowFacts takes a file id and nothing else', () => {
    expect(validateCall('getRowFacts', ['f1']).args).toEqual(['f1']);
    expect(() => validateCall('getRowFacts', [])).toThrow('getRowFacts takes 1 arguments');
    expect(() => validateCall('getRowFacts', ['f1', 2])).toThrow(BadCallError);
    expect(() => validateCall('getRowFacts', [7])).toThrow('getRowFacts: argument 1 is not valid');
    expect(() => validateCall('getRowFacts', [''])).toThrow(BadCallError);
  });
});

describe('getRows checks', () => {
  it('takes a file id, row ids and, if the caller has one, the window they are drawn in', () => {
    const window = { startSec: 0, endSec: 2.5, pixels: 1200 };
    expect(validateCall('getRows', ['f1', [0, 3]]).args).toEqual(['f1', [0, 3]]);
    expect(validateCall('getRows', ['f1', [0], window]).args).toEqual(['f1', [0], window]);
    // JSON writes an undefined argument as null
    expect(validateCall('getRows', ['f1', [0], null]).args).toEqual(['f1', [0], null]);
    expect(() => validateCall('getRows', ['f1'])).toThrow('getRows takes 2 to 3 arguments');
    expect(() => validateCall('getRows', ['f1', [0], window, 1])).toThrow(
      'getRows takes 2 to 3 arguments',
    );
    for (const bad of [
      { startSec: 0, endSec: 1 },
      { startSec: 0, endSec: 1, pixels: 0 },
      { startSec: 'a', endSec: 1, pixels: 10 },
      { startSec: 0, endSec: Infinity, pixels: 10 },
      [0, 1, 10],
      5,
    ])
      expect(() => validateCall('getRows', ['f1', [0], bad])).toThrow(
        'getRows: argument 3 is not valid',
      );
  });
});

describe('row facts and orders over HTTP on the real service', () => {
  const service = new TraceService(ingestInThread(FORMATS));
  let handle: ServeHandle;
  let port: number;
  let fileId = '';
  const path = resolve(SLIME, 'rollout_small.pt');

  beforeAll(async () => {
    const result = await service.open({ openId: 'facts', sources: [{ kind: 'path', path }] });
    if (!result.ok) throw new Error(result.error.message);
    fileId = result.file.fileId;
    const rendererDir = mkdtempSync(join(tmpdir(), 'te-row-facts-'));
    handle = await startServeMode({ api: service, rendererDir, token: 'tok' });
    port = Number(new URL(handle.url).port);
  });
  afterAll(() => handle.close());

  const call = serveCaller(() => port);

  // slime's viewer cache for the fixture: each row's lanes and epoch times
  const expected = () => readJson<{ rows: Row[] }>(`${path}.expected.json`).rows;

  it('answers every row’s lanes and times (seconds from the file start) as typed arrays', async () => {
    const answer = await call('getRowFacts', [fileId]);
    expect(answer.status).toBe(200);
    const facts = answer.body.result as RowFacts;
    expect(facts.laneCounts).toBeInstanceOf(Int32Array);
    expect(facts.startSec).toBeInstanceOf(Float64Array);
    const rows = expected();
    const origin = Math.min(...rows.map((r) => r.start));
    // the dump's row ids are its rows' places: left out
    expect(rows.map((r) => r.row_id)).toEqual(rows.map((_, i) => i));
    expect(facts.rowIds).toBeNull();
    // lanes as the row pages give them (ours add PD lanes, so not slime's lane_count)
    const views = (await call('getRows', [fileId, rows.map((r) => r.row_id)])).body
      .result as RowView[];
    expect(Array.from(facts.laneCounts)).toEqual(views.map((v) => v.laneCount));
    expect(views.map((v) => v.laneCount)).toEqual([3, 6, 6, 6, 4, 6, 6, 2, 6, 6, 6, 6, 6, 6, 6, 6]);
    expect(Array.from(facts.startSec)).toEqual(rows.map((r) => r.start - origin));
    expect(Array.from(facts.endSec)).toEqual(rows.map((r) => r.end - origin));
  });

  it('an order is ids only, of the same store; joined with the facts it is each row’s', async () => {
    const facts = (await call('getRowFacts', [fileId])).body.result as RowFacts;
    const answer = await call('queryRows', [fileId, { sort: 'lane_count', descending: true }]);
    const order = answer.body.result as RowOrder;
    expect(Object.keys(order).sort()).toEqual(['rowIds', 'storeVersion', 'total']);
    expect(order.storeVersion).toBe(facts.storeVersion);
    expect(order.total).toBe(16);
    const shown = shownOrder(order, facts);
    const byId = new Map(expected().map((r) => [r.row_id, r]));
    const origin = Math.min(...expected().map((r) => r.start));
    expect(Array.from(shown.endSec)).toEqual(
      Array.from(order.rowIds, (id) => byId.get(id)!.end - origin),
    );
    // most lanes first
    for (let k = 1; k < shown.laneCounts.length; k++)
      expect(shown.laneCounts[k]).toBeLessThanOrEqual(shown.laneCounts[k - 1]);
    expect((await call('getRowFacts', ['no-such-file'])).status).toBe(404);
  });
});
