import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { bytesSource, type ByteSource } from '../../src-main/core/bytes/byte-source';

/** The repository's own copy of the upstream-made fixtures (tests/fixtures, see its README). */
export const FIXTURES = resolve(__dirname, '../fixtures');
export const SLIME = resolve(FIXTURES, 'slime');
export const OTLP = resolve(FIXTURES, 'otlp');

export function fixtureSource(path: string): ByteSource {
  return bytesSource(path.split('/').pop()!, new Uint8Array(readFileSync(path)));
}

/** Every slime fixture that slime's viewer could read, with its expected cache JSON. */
export function slimeFixturesWithExpected(): { name: string; path: string; expectedPath: string }[] {
  return readdirSync(SLIME)
    .filter((f) => f.endsWith('.pt') && existsSync(resolve(SLIME, `${f}.expected.json`)))
    .sort()
    .map((f) => ({ name: f, path: resolve(SLIME, f), expectedPath: resolve(SLIME, `${f}.expected.json`) }));
}

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
