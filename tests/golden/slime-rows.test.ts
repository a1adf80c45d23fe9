import { describe, expect, it } from 'vitest';
import { readSlimeDump } from '../../src-main/core/formats/slime/read-slime-dump';
import { buildSlimeCache } from '../../src-main/core/rows/slime-cache';
import { round6 } from '../../src-main/core/rows/python-values';
import { fixtureSource, readJson, slimeFixturesWithExpected } from '../support/fixtures';

/** Numbers equal after slime's 6-decimal rounding; everything else deep-equal. */
function normalise(value: unknown): unknown {
  if (typeof value === 'number') return round6(value);
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = normalise((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

const fixtures = slimeFixturesWithExpected();

describe('rows equal slime viewer cache, for every fixture with an expected file', () => {
  it('finds the fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(10);
  });

  for (const fixture of fixtures) {
    it(fixture.name, () => {
      const expected = readJson<Record<string, unknown> & { rows: { items: unknown[] }[] }>(fixture.expectedPath);
      const dump = readSlimeDump(fixtureSource(fixture.path));
      const actual = buildSlimeCache(dump, fixture.path, 0) as unknown as typeof expected;
      for (const key of ['cache_version', 'sample_count', 'global_start', 'global_end']) {
        expect(normalise(actual[key]), key).toEqual(normalise(expected[key]));
      }
      expect(actual.rows.length).toBe(expected.rows.length);
      actual.rows.forEach((row, i) => {
        const { items: actualItems, ...actualFields } = row as Record<string, unknown> & { items: unknown[] };
        const { items: expectedItems, ...expectedFields } = expected.rows[i] as Record<string, unknown> & { items: unknown[] };
        expect(normalise(actualFields), `row ${i} fields`).toEqual(normalise(expectedFields));
        expect(actualItems.length, `row ${i} item count`).toBe(expectedItems.length);
        actualItems.forEach((item, j) => {
          expect(normalise(item), `row ${i} item ${j}`).toEqual(normalise(expectedItems[j]));
        });
      });
    });
  }
});
