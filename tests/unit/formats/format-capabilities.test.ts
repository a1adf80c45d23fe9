import { describe, expect, it } from 'vitest';
import {
  FORMAT_DEFAULTS,
  capabilitiesOf,
} from '../../../src-main/core/formats/format-capabilities';
import { defineFormat } from '../../../src-main/core/formats/format-descriptor';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { skeletonFormat } from '../../../src-main/core/formats/skeleton/descriptor';

// A descriptor names only the capabilities its files have; the rest are false. The blocks each
// registered descriptor spelled out in full before the fold (commit 49f624d) are pinned here:
// folding them changed no format's answer.
const NONE = { untraced: false, attempts: false, groups: false, rewards: false, pd: false };
const BEFORE_THE_FOLD = {
  'slime-train': {
    samples: true,
    joinRecords: true,
    lazyValues: true,
    perfSeries: false,
    sourceGroups: false,
    facets: { ...NONE, untraced: true },
  },
  slime: {
    samples: true,
    lazyValues: true,
    perfSeries: true,
    sourceGroups: false,
    facets: { untraced: true, attempts: true, groups: true, rewards: true, pd: true },
  },
  'gpu-profile': {
    samples: false,
    lazyValues: false,
    perfSeries: false,
    sourceGroups: true,
    gpuProfile: true,
    facets: NONE,
  },
  'chrome-trace': {
    samples: false,
    lazyValues: false,
    perfSeries: false,
    sourceGroups: false,
    facets: NONE,
  },
  'slime-comm-timeline': {
    samples: false,
    lazyValues: false,
    perfSeries: false,
    sourceGroups: false,
    trainerTimeline: true,
    facets: NONE,
  },
  'sglang-request-metrics': {
    samples: true,
    joinRecords: true,
    lazyValues: false,
    perfSeries: false,
    sourceGroups: true,
    facets: NONE,
  },
  otlp: {
    samples: false,
    lazyValues: false,
    perfSeries: false,
    sourceGroups: true,
    namedRows: true,
    facets: NONE,
  },
};

describe('format capabilities', () => {
  it('are false unless a descriptor names them; facets merge one by one', () => {
    expect(capabilitiesOf()).toEqual(FORMAT_DEFAULTS);
    expect(capabilitiesOf({ sourceGroups: true, facets: { rewards: true } })).toEqual({
      ...FORMAT_DEFAULTS,
      sourceGroups: true,
      facets: { ...NONE, rewards: true },
    });
    // the defaults are not shared: a format's block is its own
    const a = capabilitiesOf();
    a.facets.pd = true;
    expect(FORMAT_DEFAULTS.facets.pd).toBe(false);
    expect(capabilitiesOf().facets.pd).toBe(false);
  });

  it('a descriptor without a capabilities block answers nothing beyond rows and spans', () => {
    const bare = defineFormat({
      id: 'bare',
      labels: skeletonFormat.labels,
      sniff: () => false,
      open: skeletonFormat.open,
    });
    expect(bare.capabilities).toEqual(FORMAT_DEFAULTS);
    expect(skeletonFormat.capabilities).toEqual(FORMAT_DEFAULTS);
  });

  it("every registered format's capabilities are what its full block said before the fold", () => {
    expect(Object.fromEntries(FORMATS.map((f) => [f.id, f.capabilities]))).toEqual(BEFORE_THE_FOLD);
  });
});
