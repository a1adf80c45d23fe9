import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SharedValues } from '../../../src-main/core/formats/chrome/shared-values';

/**
 * Args' arrays and objects kept once by content (issue 45's GPU ranks): one value for equal JSON
 * texts, two for different ones, whatever their hashes; large values and values past the count
 * kept as read.
 */
const parse = (text: string) => JSON.parse(text) as object;

describe('SharedValues', () => {
  it('gives one frozen copy for values of one JSON text, and keeps apart every other', () => {
    const shared = new SharedValues(256, 1000);
    const texts = [
      '[[2048,16],[16,1024]]',
      '[[2048,16],[16,1025]]',
      '[[16,2048],[16,1024]]',
      '[[2048,16,16,1024]]',
      '["float","float"]',
      '["float","floa","t"]',
      '[1,2,3]',
      '[1,[2,3]]',
      '[[1,2],3]',
      '[0.5,1]',
      '[0.5000001,1]',
      '[true,null]',
      '[null,true]',
      '{"a":1,"b":[2]}',
      '{"b":[2],"a":1}',
      '{"a":1,"b":[2],"c":{}}',
      '{"a":[1]}',
      '[{"a":1}]',
      '[]',
      '{}',
      '[[]]',
      '[""]',
      '["",""]',
    ];
    const first = texts.map((t) => shared.share(parse(t)));
    // equal texts again, each a new parse: the first copy comes back
    texts.forEach((t, k) => expect(shared.share(parse(t))).toBe(first[k]));
    // different texts never meet
    expect(new Set(first).size).toBe(texts.length);
    for (const [k, value] of first.entries()) {
      expect(JSON.stringify(value)).toBe(texts[k]);
      expect(Object.isFrozen(value)).toBe(true);
    }
    expect(Object.isFrozen((first[0] as unknown[])[0])).toBe(true);
  });

  it('shares -0 with 0, as their JSON texts are one', () => {
    const shared = new SharedValues(256, 1000);
    const zero = shared.share([0, 1]);
    expect(shared.share([-0, 1])).toBe(zero);
  });

  it('keeps values past its cost or its count as read, unfrozen', () => {
    const long = parse(JSON.stringify(['x'.repeat(300)]));
    const shared = new SharedValues(256, 2);
    expect(shared.share(long)).toBe(long);
    expect(shared.share(parse(JSON.stringify(['x'.repeat(300)])))).not.toBe(long);
    expect(Object.isFrozen(long)).toBe(false);
    const a = shared.share([1]);
    shared.share([2]);
    const third = [3];
    expect(shared.share(third)).toBe(third);
    expect(shared.share([3])).not.toBe(third);
    expect(shared.share([1])).toBe(a);
  });

  it('shares every array of a real Kineto trace whose JSON text is within the old 256 chars', () => {
    const bytes = gunzipSync(readFileSync(resolve(__dirname, '../../fixtures/gpu/rank-0.json.gz')));
    const trace = JSON.parse(bytes.toString('utf8')) as {
      traceEvents: { args?: Record<string, unknown> }[];
    };
    const shared = new SharedValues(256, 100_000);
    const byText = new Map<string, unknown>();
    let values = 0;
    for (const event of trace.traceEvents) {
      for (const value of Object.values(event.args ?? {})) {
        if (typeof value !== 'object' || value === null) continue;
        const text = JSON.stringify(value);
        if (text.length > 256) continue;
        values++;
        const kept = shared.share(value);
        expect(JSON.stringify(kept)).toBe(text);
        if (byText.has(text)) expect(kept).toBe(byText.get(text));
        else byText.set(text, kept);
      }
    }
    expect(values).toBeGreaterThan(byText.size);
  });
});
