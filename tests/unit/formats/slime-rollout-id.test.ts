import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { readSlimeDump } from '../../../src-main/core/formats/slime/read-slime-dump';
import { dumpRolloutId } from '../../../src-main/core/formats/slime/dump-rollout-id';
import { isDict, type PyValue } from '../../../src-main/core/model/py-value';
import { SLIME, fixtureSource } from '../../support/fixtures';
import { legacyTorch } from '../hostile/container-writers';
import { PickleWriter, type Py } from '../hostile/pickle-writer';

/**
 * A sample as plain values: token lists, tensors and objects (which a hand-made dump would not
 * hold) left out; everything the rows and resumes read (trace, metadata, index, group) kept.
 */
function plain(value: PyValue): Py | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map((v) => plain(v) ?? null);
  if (isDict(value)) {
    const out: Record<string, Py> = {};
    for (const [k, v] of Object.entries(value)) {
      const p = plain(v);
      if (p !== undefined) out[k] = p;
    }
    return out;
  }
  return undefined;
}

/** rollout_8.pt's samples re-saved as an older dump: a bare list, no rollout_id. */
function rollout8AsBareList(): Uint8Array {
  const dump = readSlimeDump(fixtureSource(resolve(SLIME, 'rollout_8.pt')));
  expect(dump.rolloutId).toBe(8);
  const samples = dump.samples.map((s) => plain(s) ?? null);
  const bytes = legacyTorch(new PickleWriter().proto().py(samples).stop().bytes());
  const reread = readSlimeDump(bytesSource('x.pt', bytes));
  expect([reread.shape, reread.rolloutId, reread.samples.length]).toEqual(['bare-list', null, 24]);
  return bytes;
}

const open = (name: string, bytes: Uint8Array) => openTraceFile([bytesSource(name, bytes)]);

describe('a bare-list dump (no rollout_id) still tells its resumed samples', () => {
  const bare = rollout8AsBareList();
  // the reference: the same samples in slime's own wrapped dump, rollout_id 8
  const wrapped = openTraceFile([fixtureSource(resolve(SLIME, 'rollout_8.pt'))]);
  const resumedRows = (trace: ReturnType<typeof open>) =>
    trace.perf.rollout.resumed.map((s) => s.rowId);

  it('the wrapped fixture resumes rows 0-7 (fixture README: its first 2 groups, from rollout 7)', () => {
    expect(resumedRows(wrapped)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('named as slime names it: the id from the file name, said in a notice', () => {
    for (const [name, bytes] of [
      ['rollout_8.pt', bare],
      ['rollout_8.pt.gz', new Uint8Array(gzipSync(bare))],
    ] as const) {
      const trace = open(name, bytes);
      expect(trace.summary.rolloutId, name).toBe(8);
      expect(resumedRows(trace), name).toEqual(resumedRows(wrapped));
      expect(trace.perf.rollout.own).toEqual(wrapped.perf.rollout.own);
      expect(trace.summary.notices.join(' '), name).toMatch(
        new RegExp(
          `no rollout_id: taken as 8 from its file name \\(${name.replace(/\./g, '\\.')}\\)`,
        ),
      );
    }
  });

  it('a name that says nothing: one past the largest start_rollout_id, since only resumed samples carry one', () => {
    const trace = open('hand_made.pt', bare);
    expect(trace.summary.rolloutId).toBe(8);
    expect(resumedRows(trace)).toEqual(resumedRows(wrapped));
    expect(trace.summary.notices.join(' ')).toMatch(
      /file name gives none: taken as 8, one past the largest metadata\.start_rollout_id \(7\)/,
    );
  });

  it('a dump that says its rollout_id keeps it, whatever its name, with no notice', () => {
    const bytes = new Uint8Array(readFileSync(resolve(SLIME, 'rollout_8.pt')));
    const trace = open('rollout_3.pt', bytes);
    expect(trace.summary.rolloutId).toBe(8);
    expect(trace.summary.notices).toEqual([]);
  });
});

describe('dumpRolloutId', () => {
  it('slime’s names, also gzipped; other names give nothing', () => {
    const fromName = (name: string) => dumpRolloutId(null, name, () => []).rolloutId;
    expect(fromName('rollout_12.pt')).toBe(12);
    expect(fromName('eval_0.pt')).toBe(0);
    expect(fromName('rollout_eval_4.pt')).toBe(4);
    expect(fromName('rollout_7.pt.gz')).toBe(7);
    expect(fromName('run1-rollout_5.pt')).toBe(5);
    for (const name of ['bare_list.pt', 'rollout_7_retry.pt', 'myrollout_7.pt', 'rollout_.pt'])
      expect(fromName(name), name).toBeNull();
  });

  it('the name before the samples; the samples’ largest id when every one carries one', () => {
    expect(dumpRolloutId(null, 'rollout_9.pt', () => [3, 4]).rolloutId).toBe(9);
    const all = dumpRolloutId(null, 'dump.pt', () => [5, 6, 6, 4]);
    expect(all.rolloutId).toBe(6);
    expect(all.notice).toMatch(/taken as 6, the largest metadata\.start_rollout_id/);
  });

  it('nothing to go on: no id and nothing said', () => {
    expect(dumpRolloutId(null, 'dump.pt', () => [null, null])).toEqual({
      rolloutId: null,
      notice: null,
    });
    expect(dumpRolloutId(null, 'dump.pt', () => [])).toEqual({ rolloutId: null, notice: null });
  });

  it('an id the dump wrote is kept', () => {
    expect(dumpRolloutId(0, 'rollout_9.pt', () => [4, null])).toEqual({
      rolloutId: 0,
      notice: null,
    });
  });
});
