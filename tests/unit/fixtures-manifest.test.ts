import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src-main/core/bytes/format-error';
import { openTraceFile } from '../../src-main/core/open/open-trace-file';
import { FIXTURES, fixtureSource, readJson, readManifest } from '../support/fixtures';

// tests/fixtures/manifest.json lists every fixture with what must come out of it (issue 22):
// a fixture nobody lists, or a listed file or expected file that is gone, fails here.
const manifest = readManifest();

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [relative(FIXTURES, path)];
  });
}

const listed = new Set<string>(
  [
    'manifest.json',
    ...manifest.inputs.flatMap((input) => [input.file, input.rows, input.perf]),
    ...manifest.other.map((other) => other.file),
  ].filter((file): file is string => file !== undefined),
);

describe('the fixture manifest', () => {
  it('lists every file under tests/fixtures', () => {
    const unlisted = filesUnder(FIXTURES).filter((file) => !listed.has(file));
    expect(unlisted).toEqual([]);
  });

  it('names only files that exist, each input once, each with its outcome and why', () => {
    const missing = [...listed].filter((file) => !existsSync(join(FIXTURES, file)));
    expect(missing).toEqual([]);
    const inputs = manifest.inputs.map((input) => input.file);
    expect(new Set(inputs).size).toBe(inputs.length);
    for (const input of manifest.inputs) {
      // exactly one outcome: it opens, or it fails with a code
      expect([input.opens === undefined, input.error === undefined].sort(), input.file).toEqual([
        false,
        true,
      ]);
      expect(input.why.length, input.file).toBeGreaterThan(10);
    }
  });

  it('slime’s cache agrees with the counts the manifest states', () => {
    for (const input of manifest.inputs.filter((i) => i.rows !== undefined)) {
      const cache = readJson<{ sample_count: number; rows: unknown[] }>(
        join(FIXTURES, input.rows!),
      );
      // slime's sample_count counts the samples that give a row
      expect(cache.sample_count, input.file).toBe(cache.rows.length);
      expect(input.opens?.format, input.file).toBe('slime');
    }
  });
});

/** only the counts the manifest (or slime's cache) states are compared */
function pick(summary: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, summary[key]]));
}

describe('every manifest input opens as the manifest says', () => {
  for (const input of manifest.inputs.filter((i) => i.opens !== undefined)) {
    it(`${input.file} opens as ${input.opens!.format}`, () => {
      const summary = openTraceFile([fixtureSource(join(FIXTURES, input.file))]).summary;
      const want: Record<string, unknown> = { ...input.opens };
      // a fixture with slime's cache has exactly as many rows as the cache
      if (input.rows !== undefined)
        want.rows = readJson<{ rows: unknown[] }>(join(FIXTURES, input.rows)).rows.length;
      expect(pick(summary as unknown as Record<string, unknown>, Object.keys(want))).toEqual(want);
    });
  }

  for (const input of manifest.inputs.filter((i) => i.error !== undefined)) {
    it(`${input.file} fails with ${input.error}`, () => {
      let thrown: unknown;
      try {
        openTraceFile([fixtureSource(join(FIXTURES, input.file))]);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(FormatError);
      expect((thrown as FormatError).code).toBe(input.error);
      expect((thrown as FormatError).offset).toBe(input.offset);
    });
  }
});
