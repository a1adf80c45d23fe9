import { describe, expect, it } from 'vitest';
import {
  toAttr,
  responseLength,
  sampleLabel,
  sampleSource,
  sampleStatus,
  traceAttempt,
} from '../../../src-main/core/rows/row-fields';

describe('row fields (TRACE_MODEL 3, step 6)', () => {
  it('source: the sample field, then metadata source, source_name, then the first key containing "source"', () => {
    expect(sampleSource({ source: 'top', metadata: { source: 'meta' } })).toBe('top');
    expect(sampleSource({ source: '', metadata: { source: 'meta' } })).toBe('meta');
    expect(sampleSource({ metadata: { source: null, source_name: 'named' } })).toBe('named');
    expect(sampleSource({ metadata: { other: 1, data_source: '', Dataset_Source: 'ds' } })).toBe(
      'ds',
    );
    expect(sampleSource({ metadata: {} })).toBeNull();
    expect(sampleSource({ metadata: 'not a dict' })).toBeNull();
    // slime tests `not in (None, "")`, so 0 is a source; an int stays an int (issue 48)
    expect(sampleSource({ source: 0 })).toBe(0);
    expect(sampleSource({ metadata: { source: 7n } })).toBe(7);
    expect(sampleSource({ source: ['a', 'b'] })).toEqual(['a', 'b']);
  });

  it('source: metadata source before source_name before any other key naming a source, in that order', () => {
    expect(sampleSource({ metadata: { source_name: 'named', source: 'meta' } })).toBe('meta');
    expect(sampleSource({ metadata: { data_source: 'ds', source_name: 'named' } })).toBe('named');
    // an int stays an int as slime's JSON keeps it, exact beyond 2^53
    expect(sampleSource({ source: 2n ** 70n + 1n })).toBe(2n ** 70n + 1n);
  });

  it('source and status cut at 64 characters, label at 256', () => {
    const long = 'x'.repeat(100);
    expect(sampleSource({ source: long })).toBe(`${'x'.repeat(64)}...<truncated:100>`);
    expect(sampleStatus({ status: long })).toBe(`${'x'.repeat(64)}...<truncated:100>`);
    expect(sampleLabel({ label: 'L'.repeat(300) })).toBe(`${'L'.repeat(256)}...<truncated:300>`);
    expect(sampleLabel({ label: 3 })).toBe(3);
    expect(sampleStatus({})).toBeNull();
    expect(sampleStatus({ status: null })).toBeNull();
  });

  it("attempt: the trace's, None as 0", () => {
    expect(traceAttempt({ attempt: 2 })).toBe(2);
    expect(traceAttempt({ attempt: null })).toBe(0);
    expect(traceAttempt({})).toBe(0);
    expect(traceAttempt({ attempt: 2.9 })).toBe(2);
    expect(traceAttempt({ attempt: 'inf' })).toBe(0);
    expect(traceAttempt({ attempt: NaN })).toBe(0);
  });

  it('response_length: ints and floats (cut to int), True as 1, anything else ignored', () => {
    expect(responseLength(12)).toBe(12);
    expect(responseLength(12.9)).toBe(12);
    expect(responseLength(true)).toBe(1);
    expect(responseLength('12')).toBeNull();
    expect(responseLength(null)).toBeNull();
    expect(responseLength(NaN)).toBeNull();
    expect(responseLength(Infinity)).toBeNull();
  });

  it('toAttr keeps a "__proto__" key of a pickled dict as a plain own key', () => {
    const dict = Object.create(null) as Record<string, unknown>;
    dict['__proto__'] = { polluted: true };
    dict.ok = 1;
    const out = toAttr(dict as never) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__', 'ok']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')).toEqual({
      value: { polluted: true },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});
