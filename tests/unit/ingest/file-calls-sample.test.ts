import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../src-main/core/api/call-errors';
import { readLazyList, readSlimeDump } from '../../../src-main/core/formats/slime/read-slime-dump';
import type { LazyList, PyValue } from '../../../src-main/core/model/py-value';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { sampleToDetails } from '../../../src-main/core/open/sample-details';
import { fileCalls } from '../../../src-main/ingest/file-calls';
import { FIXTURES, SLIME, fixtureSource, readJson } from '../../support/fixtures';

// A sample's details are read through TraceSamples.read (which may read the file again): the
// worker's getSample and getLazyValues must answer what the sample dict itself says.
describe('getSample and getLazyValues through the file calls', () => {
  const path = resolve(SLIME, 'rollout_small.pt');
  const calls = fileCalls(openTraceFile([fixtureSource(path)]), [{ kind: 'path', path }]);
  // the dump read on its own, traces and all: what the details showed before
  const samples = readSlimeDump(fixtureSource(path)).samples as Record<string, PyValue>[];

  it('a sample’s details are its dict’s fields but the trace', () => {
    const { trace: _trace, ...fields } = samples[3];
    const details = calls.getSample(3);
    expect(details).toEqual({ rowId: 3, fields: sampleToDetails(fields) });
    expect('trace' in details.fields).toBe(false);
    // the same sample slime's viewer made row 3 of (rollout_small.pt.expected.json)
    const cache = readJson<{ rows: { group_index: number; status: string }[] }>(
      `${path}.expected.json`,
    );
    expect([details.fields.group_index, details.fields.status]).toEqual([
      cache.rows[3].group_index,
      cache.rows[3].status,
    ]);
  });

  it('a token list kept as a byte range is re-read from the file', () => {
    const tokens = samples[3].tokens as LazyList;
    expect(tokens.$kind).toBe('lazy-list');
    const values = calls.getLazyValues(3, 'tokens');
    expect(values.length).toBe(tokens.length);
    expect(values.values).toEqual(readLazyList(fixtureSource(path), tokens));
  });

  it('a row id outside [0, samples) or not an integer is a NotFoundError', () => {
    // 16 samples (tests/fixtures/slime/README.md: 4 groups x 4)
    expect(calls.getSample(15).rowId).toBe(15);
    for (const rowId of [-1, 16, 1.5, Number.NaN]) {
      expect(() => calls.getSample(rowId)).toThrow(NotFoundError);
      expect(() => calls.getLazyValues(rowId, 'tokens')).toThrow(NotFoundError);
    }
  });

  it('a format without samples answers no fields', () => {
    const otlp = resolve(FIXTURES, 'run/sglang_otel_trace.json');
    const traceCalls = fileCalls(openTraceFile([fixtureSource(otlp)]), [
      { kind: 'path', path: otlp },
    ]);
    expect(traceCalls.getSample(0)).toEqual({ rowId: 0, fields: {} });
  });
});
