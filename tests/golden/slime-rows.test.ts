import { describe, expect, it } from 'vitest';
import { readSlimeDump } from '../../src-main/core/formats/slime/read-slime-dump';
import { buildSlimeCache } from '../../src-main/core/rows/slime-cache';
import { jsonText } from '../../src-main/core/model/json-text';
import { fixtureSource, readJson, slimeFixturesWithExpected } from '../support/fixtures';

// No normalising with the project's own code (issue 22: normalising both sides with our round6
// hid a round6 that kept 3 decimals). slime's viewer writes Python's round(x, 6); JSON carries
// that double exactly, so our cache must hold the very same numbers: plain deep equality.

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

/** every fixture the manifest gives slime's viewer cache for (tests/fixtures/manifest.json) */
const fixtures = slimeFixturesWithExpected();

describe('rows equal slime viewer cache, for every fixture with an expected file', () => {
  it('finds the fixtures', () => {
    // 15 fixtures carry slime's viewer cache (tests/fixtures/manifest.json)
    expect(fixtures.length).toBe(15);
    // slime needs slime installed for pickled Sample objects; we read them without it
    expect(fixtures.map((f) => f.name)).toContain('sample_objects.pt');
  });

  for (const fixture of fixtures) {
    it(fixture.name, () => {
      const expected = readJson<Cache>(fixture.expectedPath);
      const dump = readSlimeDump(fixtureSource(fixture.path));
      // read back as the expected file is read: an int beyond 2^53 (a bigint here) becomes the
      // double JSON.parse gives both sides; its digits are checked exactly in
      // tests/unit/formats/slime-edge-values.test.ts
      const actual = JSON.parse(jsonText(buildSlimeCache(dump, fixture.path, 0))) as Cache;
      // pt_path and generated_at are run-specific
      const topKeys = Object.keys(expected).filter((k) => k !== 'pt_path' && k !== 'generated_at');
      expect(Object.keys(actual).filter((k) => k !== 'pt_path' && k !== 'generated_at')).toEqual(
        topKeys,
      );
      for (const key of topKeys.filter((k) => k !== 'rows')) {
        expect(actual[key], key).toEqual(expected[key]);
      }
      expect(actual.rows.length).toBe(expected.rows.length);
      actual.rows.forEach((row, i) => {
        const { items: actualItems, ...actualFields } = row;
        const { items: expectedItems, ...expectedFields } = expected.rows[i];
        expect(actualFields, `row ${i} fields`).toEqual(expectedFields);
        expect(actualItems.length, `row ${i} item count`).toBe(expectedItems.length);
        actualItems.forEach((item, j) => {
          expect(item, `row ${i} item ${j}`).toEqual(expectedItems[j]);
        });
        // same keys in the same order as slime writes them, down to attrs
        expect(keyOrder(row), `row ${i} key order`).toEqual(keyOrder(expected.rows[i]));
      });
    });
  }
});
