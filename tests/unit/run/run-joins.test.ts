import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { runDigest } from '../../../src-main/core/run/run-digest';
import { buildRunJoins, versionInForce } from '../../../src-main/core/run/build-run-joins';
import type { RunFileDigest } from '../../../src-main/core/model/run';
import { expectedTimelineOperations } from '../../support/run-expected';

// Pinned values: tests/fixtures/run/README.md ("Joins that must hold", "Clock relations",
// "Expected counts") and expected_counts.json (joins, rollouts, timeline, clock), computed by
// check_run.py from the files themselves.
const RUN = join(__dirname, '../../fixtures/run');
const digestOf = (path: string) => {
  const opened = openTraceFile([bytesSource(path, readFileSync(join(RUN, path)))]);
  return runDigest(opened);
};

const dumps = ['rollout_0.pt', 'rollout_1.pt'].map(digestOf);
const sglang = digestOf('sglang_otel_trace.json');
const v2 = ['comm_timeline/slime-trainer-0.jsonl', 'comm_timeline/slime-trainer-1.jsonl'].map(
  digestOf,
);
const v1 = ['comm_timeline_v1/slime-trainer-0.jsonl', 'comm_timeline_v1/slime-trainer-1.jsonl'].map(
  digestOf,
);
const copy = (d: RunFileDigest): RunFileDigest => structuredClone(d);

// per rank, schema 2 (both ranks count alike)
const V2_BY_OPERATION = expectedTimelineOperations('comm_timeline/slime-trainer-0.jsonl');
const doubled = (counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).map(([k, n]) => [k, 2 * n]));

describe('the joins of one run', () => {
  it('classifies each file by what it holds', () => {
    expect(dumps.map((d) => d.role)).toEqual(['samples', 'samples']);
    expect(sglang.role).toBe('server');
    expect([...v1, ...v2].map((d) => d.role)).toEqual(['trainer', 'trainer', 'trainer', 'trainer']);
    expect(dumps.map((d) => d.rolloutId)).toEqual([0, 1]);
  });

  it('joins 64 samples to 64 of 65 SGLang decode requests; the aborted one has no sample', () => {
    const joins = buildRunJoins([...dumps, sglang, ...v2]);
    expect(joins.counts).toEqual({
      samples: 64,
      samplesWithServerRequests: 64,
      samplesWithoutServerRequest: 0,
      serverRequests: 65,
      serverRequestsWithoutSample: 1,
      staleSamples: 0,
    });
    expect(joins.links).toHaveLength(64);
    const [orphan] = joins.serverRequestsWithoutSample;
    expect(orphan.rid).toBe('03b17c26e4095a197023885edbb54011');
    // SGLang shows it aborted: router 499 + decode thread ERROR
    expect(orphan.error).toBe(true);
    // its client: rollout 0, sample index 5, attempt 0's generate span without request id
    expect(orphan.likelyClient).toMatchObject({ rolloutId: 0, sampleIndex: 5, attempt: 0 });
    expect(joins.samplesWithoutServerRequest).toEqual([]);
  });

  it('puts every joined SGLang trace inside its client span, on one clock', () => {
    const { links } = buildRunJoins([...dumps, sglang]);
    // router start 0.405..1.179 ms after the client start; client end 0.318..1.495 ms after
    const leadMs = links.map((l) => l.leadSec * 1e3);
    const tailMs = links.map((l) => l.tailSec * 1e3);
    expect(Math.min(...leadMs)).toBeCloseTo(0.405, 2);
    expect(Math.max(...leadMs)).toBeCloseTo(1.179, 2);
    expect(Math.min(...tailMs)).toBeCloseTo(0.318, 2);
    expect(Math.max(...tailMs)).toBeCloseTo(1.495, 2);
  });

  it('gives the server breakdown of a joined request: router, tokenizer, queue, prefill, KV transfer, decode with rank', () => {
    const stages = new Set(sglang.serverRequests[0].stages.map((s) => s.stage));
    expect([...stages].sort()).toEqual(
      ['KV transfer', 'decode', 'prefill', 'queue', 'router', 'tokenizer'].sort(),
    );
    const decode = sglang.serverRequests[0].stages.find((s) => s.name === 'decode_forward');
    expect(decode?.lane).toBe('Decode Scheduler TP0');
  });

  it('counts the trainer: 123 records per rank (v2), 105 (v1), by operation', () => {
    expect(buildRunJoins([...dumps, sglang, ...v2]).trainer).toEqual({
      files: 2,
      records: 246,
      skippedLines: 0,
      byOperation: doubled(V2_BY_OPERATION),
    });
    const { weight_bucket_reusable: _, ...v1Ops } = V2_BY_OPERATION;
    void _;
    expect(buildRunJoins([...dumps, sglang, ...v1]).trainer).toEqual({
      files: 2,
      records: 210,
      skippedLines: 0,
      byOperation: doubled(v1Ops),
    });
  });

  it('weight versions: rollout 0 ran on version 1, rollout 1 on 2; each request inside its window', () => {
    for (const trainer of [v1, v2]) {
      const joins = buildRunJoins([...dumps, sglang, ...trainer]);
      expect(joins.rollouts.map((r) => [r.rolloutId, r.weightVersion])).toEqual([
        [0, 1],
        [1, 2],
      ]);
      expect(joins.versionSyncs.map((s) => s.weightVersion)).toEqual([1, 2, 3]);
      // sync v1 done 1787648404.416 (latest rank), v2 432.617, v3 466.97 (expected_counts clock)
      const done = joins.versionSyncs.map((s) => s.completeSec!);
      expect(done[0]).toBeCloseTo(trainer === v2 ? 1787648404.416362 : 1787648404.4184, 5);
      expect(done[2]).toBeCloseTo(trainer === v2 ? 1787648466.968449 : 1787648466.96907, 5);
      // 64/64: the version in force at each request's start is the sample's version
      let inWindow = 0;
      for (const [file, digest] of dumps.entries()) {
        for (const client of digest.clientRequests.filter((c) => c.rid !== null)) {
          const sample = digest.samples.find((s) => s.rowId === client.rowId)!;
          if (
            String(versionInForce(joins.versionSyncs, client.startSec)) === sample.weightVersions[0]
          ) {
            inWindow++;
          }
          void file;
        }
      }
      expect(inWindow).toBe(64);
    }
  });

  it('finds a stale sample, a sample without request id and a sample with two requests (built here)', () => {
    const r0 = copy(dumps[0]);
    const r1 = copy(dumps[1]);
    // rollout 1: sample row 3 generated with version 1 while its rollout's newest is 2
    r1.samples[3].weightVersions = ['1', '2'];
    // rollout 1: row 4's request returned no id (a client timeout)
    const timedOut = r1.clientRequests.find((c) => c.rowId === 4)!;
    const lostRid = timedOut.rid!;
    timedOut.rid = null;
    // rollout 0: row 7 resumed: a second generate span holding the aborted request's rid
    const first = r0.clientRequests.find((c) => c.rowId === 7)!;
    r0.clientRequests.push({ ...first, itemIndex: 999, rid: '03b17c26e4095a197023885edbb54011' });
    const joins = buildRunJoins([r0, r1, sglang, ...v2]);
    expect(joins.counts).toEqual({
      samples: 64,
      samplesWithServerRequests: 63,
      samplesWithoutServerRequest: 1,
      serverRequests: 65,
      serverRequestsWithoutSample: 1,
      staleSamples: 1,
    });
    expect(joins.stale).toEqual([
      {
        file: 1,
        rowId: 3,
        sampleIndex: r1.samples[3].sampleIndex,
        rolloutId: 1,
        weightVersions: ['1', '2'],
        rolloutVersion: 2,
      },
    ]);
    expect(joins.samplesWithoutServerRequest).toMatchObject([
      { file: 1, rowId: 4, rolloutId: 1, reason: 'no request id (client timeout or abort)' },
    ]);
    expect(joins.serverRequestsWithoutSample.map((s) => s.rid)).toEqual([lostRid]);
    expect(joins.links.filter((l) => l.client.file === 0 && l.client.rowId === 7)).toHaveLength(2);
  });
});
