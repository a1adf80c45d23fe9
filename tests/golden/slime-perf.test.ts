import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readSlimeDump } from '../../src-main/core/formats/slime/read-slime-dump';
import { buildPerfSummary } from '../../src-main/core/rows/perf-summary';
import { fixtureSource, readJson, slimeFixturesWithExpected } from '../support/fixtures';

const fixtures = slimeFixturesWithExpected().filter((f) => existsSync(`${f.path}.perf.expected.json`));

/** Keys we add beyond slime's perf summary (TRACE_MODEL section 5, "ours"). */
const OUR_KEYS =
  /^perf\/request\/(count|profiled_count)$|^perf\/(prefill|decode)\/([a-z_]+_duration|transfer_speed_gb_s|transfer_total_mb|retry_count)\/(mean|median|max|min)$/;

describe('perf summary equals slime’s for every fixture', () => {
  it('finds the fixtures', () => expect(fixtures.length).toBeGreaterThanOrEqual(9));

  for (const fixture of fixtures) {
    it(fixture.name, () => {
      const expected = readJson<Record<string, number>>(`${fixture.path}.perf.expected.json`);
      const actual = buildPerfSummary(readSlimeDump(fixtureSource(fixture.path)).samples);
      for (const [key, value] of Object.entries(expected)) {
        expect(actual[key], key).toBeDefined();
        const scale = Math.max(Math.abs(value), 1e-300);
        expect(Math.abs(actual[key] - value) / scale, key).toBeLessThan(1e-9);
      }
      // everything beyond slime's keys is one of ours, named in OUR_KEYS
      for (const key of Object.keys(actual).filter((k) => !(k in expected))) {
        expect(key, `${key} is neither slime's nor one of ours`).toMatch(OUR_KEYS);
      }
    });
  }

  it('ours: request counts, and PD phase keys from sglang_pd_* children where slime has none', () => {
    const actual = buildPerfSummary(readSlimeDump(fixtureSource(fixtures.find((f) => f.name === 'rollout_small.pt')!.path)).samples);
    const expected = readJson<Record<string, number>>(fixtures.find((f) => f.name === 'rollout_small.pt')!.path + '.perf.expected.json');
    expect(Object.keys(expected).some((k) => k.startsWith('perf/prefill/'))).toBe(false);
    expect(actual['perf/prefill/forward_duration/mean']).toBeGreaterThan(0);
    expect(actual['perf/decode/forward_duration/mean']).toBeGreaterThan(0);
    expect(actual['perf/request/count']).toBeGreaterThan(0);
  });
});
