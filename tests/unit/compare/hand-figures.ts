import {
  WALL_TIME_CATEGORIES,
  type BoundingSample,
  type GroupFigures,
  type RolloutFigures,
  type StragglerAttribution,
  type TimeWindow,
  type WallTimeCategory,
} from '../../../src-main/core/model/rollout-figures';

/** Rollout figures made by hand for the compare tests: every figure is one given here. */
const window = (durationSec: number, kind: 'own' | 'whole', label?: string): TimeWindow => ({
  startSec: 0,
  endSec: durationSec,
  durationSec,
  kind,
  label: label ?? `${kind} window`,
});

const seconds = (given: Partial<Record<WallTimeCategory, number>>) =>
  Object.fromEntries(WALL_TIME_CATEGORIES.map((c) => [c, given[c] ?? 0])) as Record<
    WallTimeCategory,
    number
  >;

export interface Given {
  whole?: number;
  own: number;
  /** [rowId, startRolloutId] of each resumed sample */
  resumed?: [number, number][];
  whole_seconds?: Partial<Record<WallTimeCategory, number>>;
  own_seconds?: Partial<Record<WallTimeCategory, number>>;
  bounding?: [rowId: number, group: number];
  /** what the answer says of the bounding sample (defaults: completed, first attempt, no request) */
  bounding_sample?: Partial<BoundingSample>;
  stragglers?: Partial<StragglerAttribution>;
  groups?: Partial<GroupFigures>[];
  labels?: { own: string; whole: string };
}

export function figures(g: Given): RolloutFigures {
  const whole = window(g.whole ?? g.own, 'whole', g.labels?.whole);
  const own = window(g.own, 'own', g.labels?.own);
  return {
    whole,
    own,
    resumed: (g.resumed ?? []).map(([rowId, startRolloutId]) => ({
      rowId,
      sampleIndex: rowId,
      groupIndex: 0,
      startRolloutId,
      earlierStartSec: 0,
      earlierEndSec: 1,
      resumeStartSec: 2,
      idleSec: 1,
    })),
    breakdownWhole: {
      window: whole,
      seconds: seconds(g.whole_seconds ?? {}),
      boundingRowId: null,
      boundingGroupIndex: null,
      bounding: null,
    },
    breakdownOwn: {
      window: own,
      seconds: seconds(g.own_seconds ?? {}),
      boundingRowId: g.bounding ? g.bounding[0] : null,
      boundingGroupIndex: g.bounding ? g.bounding[1] : null,
      bounding: g.bounding
        ? {
            rowId: g.bounding[0],
            // sample index = row id + 100, so a sentence shows which one it names
            sampleIndex: g.bounding[0] + 100,
            groupIndex: g.bounding[1],
            status: 'completed',
            attempt: 0,
            lastRequest: null,
            ...g.bounding_sample,
          }
        : null,
    },
    stragglers: g.stragglers
      ? {
          window: own,
          rowIds: [],
          sampleCount: 0,
          sampleShare: 0,
          tailSec: 0,
          wallShare: 0,
          sentence: '',
          ...g.stragglers,
        }
      : null,
    groups: (g.groups ?? []).map((group) => ({
      groupIndex: 0,
      rowIds: [],
      startSec: 0,
      endSec: 1,
      wallSec: 1,
      slowestRowId: 0,
      slowestEndSec: 1,
      medianSampleSec: 1,
      rewardMean: null,
      rewardStd: null,
      zeroVariance: false,
      resumedSamples: 0,
      ...group,
    })),
    responseLengths: [],
  };
}
