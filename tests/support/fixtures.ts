import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bytesSource, type ByteSource } from '../../src-main/core/bytes/byte-source';

/** The repository's own copy of the upstream-made fixtures (tests/fixtures, see its README). */
export const FIXTURES = resolve(__dirname, '../fixtures');
export const SLIME = resolve(FIXTURES, 'slime');
export const OTLP = resolve(FIXTURES, 'otlp');

export function fixtureSource(path: string): ByteSource {
  return bytesSource(path.split('/').pop()!, new Uint8Array(readFileSync(path)));
}

/** One entry of tests/fixtures/manifest.json: a fixture and what must come out of it. */
export interface ManifestInput {
  file: string;
  /** the summary's format and counts; each count from the README or expected file in `why` */
  opens?: { format: string; samples?: number; rows?: number; spans?: number };
  /** the FormatError code opening must give */
  error?: string;
  /** the FormatError's byte offset */
  offset?: number;
  /** slime's viewer cache for it (FIXTURES-relative) */
  rows?: string;
  /** slime's perf keys for it (FIXTURES-relative) */
  perf?: string;
  why: string;
}

export interface FixtureManifest {
  inputs: ManifestInput[];
  other: { file: string; why: string }[];
}

export function readManifest(): FixtureManifest {
  return readJson<FixtureManifest>(resolve(FIXTURES, 'manifest.json'));
}

/**
 * Every slime fixture the manifest gives slime's viewer cache for. Listed, not found by listing
 * the folder: a fixture whose expected file goes missing fails instead of dropping out.
 */
export function slimeFixturesWithExpected(): {
  name: string;
  path: string;
  expectedPath: string;
  perfPath: string | null;
}[] {
  return readManifest()
    .inputs.filter((input) => input.rows !== undefined)
    .map((input) => ({
      name: input.file.split('/').pop()!,
      path: resolve(FIXTURES, input.file),
      expectedPath: resolve(FIXTURES, input.rows!),
      perfPath: input.perf === undefined ? null : resolve(FIXTURES, input.perf),
    }));
}

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
