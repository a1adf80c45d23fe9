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
    for (const key of Object.keys(value).sort()) {
      out[key] = normalise((value as Record<string, unknown>)[key]);
    }
    return out;
  }
  return value;
}

/** Every object key in document order, with its path: slime's key order, nested attrs included. */
function keyOrder(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyOrder(v, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [
      `${path}.${k}`,
      ...keyOrder(v, `${path}.${k}`),
    ]);
  }
  return [];
}

type Json = Record<string, unknown>;
type Cache = Json & { rows: (Json & { items: Json[] })[] };

/** every fixture beside which slime's viewer wrote its cache (found by listing the folder) */
const fixtures = slimeFixturesWithExpected();

describe('rows equal slime viewer cache, for every fixture with an expected file', () => {
  it('finds the fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(10);
    // slime needs slime installed for pickled Sample objects; we read them without it
    expect(fixtures.map((f) => f.name)).toContain('sample_objects.pt');
  });

  for (const fixture of fixtures) {
    it(fixture.name, () => {
      const expected = readJson<Cache>(fixture.expectedPath);
      const dump = readSlimeDump(fixtureSource(fixture.path));
      const actual = buildSlimeCache(dump, fixture.path, 0) as unknown as Cache;
      // pt_path and generated_at are run-specific
      const topKeys = Object.keys(expected).filter((k) => k !== 'pt_path' && k !== 'generated_at');
      expect(Object.keys(actual).filter((k) => k !== 'pt_path' && k !== 'generated_at')).toEqual(
        topKeys,
      );
      for (const key of topKeys.filter((k) => k !== 'rows')) {
        expect(normalise(actual[key]), key).toEqual(normalise(expected[key]));
      }
      expect(actual.rows.length).toBe(expected.rows.length);
      actual.rows.forEach((row, i) => {
        const { items: actualItems, ...actualFields } = row;
        const { items: expectedItems, ...expectedFields } = expected.rows[i];
        expect(normalise(actualFields), `row ${i} fields`).toEqual(normalise(expectedFields));
        expect(actualItems.length, `row ${i} item count`).toBe(expectedItems.length);
        actualItems.forEach((item, j) => {
          expect(normalise(item), `row ${i} item ${j}`).toEqual(normalise(expectedItems[j]));
        });
        // same keys in the same order as slime writes them, down to attrs
        expect(keyOrder(row), `row ${i} key order`).toEqual(keyOrder(expected.rows[i]));
      });
    });
  }
});
