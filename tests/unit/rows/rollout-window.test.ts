import { describe, expect, it } from 'vitest';
import { buildWindows, findResumedSamples } from '../../../src-main/core/rows/rollout-window';
import type { PyValue } from '../../../src-main/core/model/py-value';
import type { ResumedSample } from '../../../src-main/core/model/rollout-figures';
import type { SampleFacts } from '../../../src-main/core/model/sample-facts';
import { slimeSampleFacts } from '../../../src-main/core/formats/slime/sample-facts';
import { packedRow as row, span } from './hand-rows';

/** The facts of a sample dict carrying slime's `metadata.start_rollout_id`. */
const startedIn = (id: PyValue): SampleFacts | null =>
  slimeSampleFacts({ metadata: { start_rollout_id: id } });

/** A resumed sample as findResumedSamples gives it; only rowId and the times matter here. */
function resumedAt(rowId: number, resumeStartSec: number, idleSec: number): ResumedSample {
  return {
    rowId,
    sampleIndex: rowId,
    groupIndex: 0,
    startRolloutId: 7,
    earlierStartSec: 0,
    earlierEndSec: resumeStartSec - idleSec,
    resumeStartSec,
    idleSec,
  };
}

describe('findResumedSamples (slime partial rollout: metadata.start_rollout_id)', () => {
  it('the earlier attempt ends before the widest stretch the trace covers nothing', () => {
    // covered: 100-110, 112-115 | 85 s idle | 200-210, 212-220; file starts at 100
    const r = row(
      0,
      [
        span('generate_and_rm', 100, 110),
        span('sglang_generate', 112, 115),
        span('generate_and_rm', 200, 210),
        span('sglang_generate', 212, 220),
      ],
      { sample_index: 40, group_index: 3 },
    );
    expect(findResumedSamples([r], [startedIn(7)], 8, 100)).toEqual([
      {
        rowId: 0,
        sampleIndex: 40,
        groupIndex: 3,
        startRolloutId: 7,
        earlierStartSec: 0,
        earlierEndSec: 15,
        resumeStartSec: 100,
        idleSec: 85,
      },
    ]);
  });

  it('of equally wide gaps, the first is the one between the attempts', () => {
    const r = row(0, [span('a', 0, 1), span('b', 3, 4), span('c', 6, 7)]);
    const [s] = findResumedSamples([r], [startedIn(1)], 2, 0);
    expect([s.earlierEndSec, s.resumeStartSec, s.idleSec]).toEqual([1, 3, 2]);
  });

  it('a trace without a gap: the earlier attempt is empty, at the row’s start, no idle time', () => {
    const r = row(0, [span('a', 50, 60), span('b', 55, 70)]);
    const [s] = findResumedSamples([r], [startedIn(1)], 2, 40);
    expect([s.earlierStartSec, s.earlierEndSec, s.resumeStartSec, s.idleSec]).toEqual([
      10, 10, 10, 0,
    ]);
  });

  it('only an integer start_rollout_id earlier than this rollout counts (a bigint one too)', () => {
    const started = (id: PyValue): PyValue => ({ metadata: { start_rollout_id: id } });
    const samples: PyValue[] = [
      started(7), // 0: earlier: resumed
      started(8), // 1: this rollout: fresh
      started(9), // 2: later (a foreign sample): not resumed
      started(7.5), // 3: not an integer
      started('7'), // 4: not a number
      started(7n), // 5: an int the unpickler kept as bigint: resumed
      { metadata: null }, // 6
      { metadata: [7] }, // 7: metadata not a dict
      [{ metadata: { start_rollout_id: 7 } }], // 8: sample not a dict
      { start_rollout_id: 7 }, // 9: outside metadata
      null, // 10
    ];
    const rows = [...samples.keys(), 11].map((id) => row(id, [span('a', id, id + 1)]));
    // as a dump's samples give them when it is opened
    const found = findResumedSamples(rows, samples.map(slimeSampleFacts), 8, 0);
    expect(found.map((s) => [s.rowId, s.startRolloutId])).toEqual([
      [0, 7],
      [5, 7],
    ]);
  });

  it('finds nothing when the rollout id is not a number', () => {
    const rows = [row(0, [span('a', 0, 1)])];
    expect(findResumedSamples(rows, [startedIn(7)], '8', 0)).toEqual([]);
    expect(findResumedSamples(rows, [startedIn(7)], null, 0)).toEqual([]);
  });
});

describe('buildWindows', () => {
  it('no rows: empty windows labelled so', () => {
    const empty = { startSec: 0, endSec: 0, durationSec: 0, label: 'no rows' };
    expect(buildWindows([], [])).toEqual({
      whole: { ...empty, kind: 'whole' },
      own: { ...empty, kind: 'own' },
    });
  });

  it('nothing resumed: the own window is the whole file', () => {
    const rows = [row(0, [span('a', 110, 130)]), row(1, [span('b', 100, 125)])];
    const { whole, own } = buildWindows(rows, []);
    expect(whole).toEqual({
      startSec: 0,
      endSec: 30,
      durationSec: 30,
      kind: 'whole',
      label: "the whole file, as slime's viewer spans it: 0-30.0 s (30.0 s)",
    });
    expect(own).toEqual({
      startSec: 0,
      endSec: 30,
      durationSec: 30,
      kind: 'own',
      label:
        "this rollout's own window: 0-30.0 s (30.0 s), the whole file (no sample resumed from an earlier rollout)",
    });
  });

  it('the own window starts at the first work in this rollout: a resumed row counts from its resume', () => {
    // file from 100 to 230; row 0 resumed at 100 s after the file start, the others start at 50 and 60 s
    const rows = [
      row(1, [span('b', 150, 230)]),
      row(0, [span('early', 100, 105), span('late', 200, 220)]),
      row(2, [span('c', 160, 200)]),
    ];
    const { whole, own } = buildWindows(rows, [resumedAt(0, 100, 95)]);
    expect([whole.startSec, whole.endSec]).toEqual([0, 130]);
    expect(own).toEqual({
      startSec: 50,
      endSec: 130,
      durationSec: 80,
      kind: 'own',
      label:
        "this rollout's own window: 50.0-130.0 s (80.0 s); earlier attempts of 1 resumed sample left out",
    });
  });

  it('counts the resumed samples with idle time between attempts, in the plural', () => {
    const rows = [0, 1, 2].map((id) => row(id, [span('a', 0, 2), span('b', 10, 12)]));
    const { own } = buildWindows(rows, [
      resumedAt(0, 10, 8),
      resumedAt(1, 10, 8),
      resumedAt(2, 0, 0), // resumed without a gap: no earlier attempt left out
    ]);
    expect(own.label).toBe(
      "this rollout's own window: 0.0-12.0 s (12.0 s); earlier attempts of 2 resumed samples left out",
    );
  });
});
