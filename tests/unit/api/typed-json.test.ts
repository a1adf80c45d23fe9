import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  TYPED_FRAME_TYPE,
  bigIntBack,
  decodeAnswer,
  encodeAnswer,
  type EncodedAnswer,
} from '../../../src-main/core/api/typed-json';
import { bytesOf } from '../../support/serve-call';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { buildPerfDigest } from '../../../src-main/core/open/perf-digest';
import { rowFactsOf } from '../../../src-main/core/store/row-views';
import { SLIME, fixtureSource } from '../../support/fixtures';

const received = (encoded: EncodedAnswer) => bytesOf(encoded).buffer;

describe('answers with typed arrays over HTTP', () => {
  it('round-trip exactly, inside any object, each array a view of the received bytes', () => {
    const order = {
      rowIds: Int32Array.from([3, 1, -2, 2 ** 31 - 1]),
      // an odd length before a Float64Array: the frame pads it to a multiple of 8
      lanes: Uint8Array.from([1, 2, 3]),
      startSec: Float64Array.from([0, 1.5, Math.PI, 1760000000.123456, NaN, -Infinity]),
      small: Uint16Array.from([65535]),
      ratio: Float32Array.from([0.25]),
      empty: new Float64Array(0),
      total: 4,
      label: 'héllo',
      plain: [1, 2],
    };
    const encoded = encodeAnswer({ result: order });
    expect(encoded.contentType).toBe(TYPED_FRAME_TYPE);
    const body = received(encoded);
    const back = decodeAnswer(TYPED_FRAME_TYPE, body) as { result: typeof order };
    expect(back).toEqual({ result: order });
    expect(back.result.startSec).toBeInstanceOf(Float64Array);
    expect(back.result.startSec.buffer).toBe(body);
    expect(back.result.lanes).toBeInstanceOf(Uint8Array);
  });

  it('carry a dump’s ints beyond 2^53 exactly, in plain JSON and in a typed frame', () => {
    const attrs = { big_int: 2n ** 70n, neg: -(2n ** 64n), like: { $bigint: 'x' }, n: 3 };
    for (const value of [{ result: attrs }, { result: { attrs, ids: Int32Array.from([1]) } }]) {
      const encoded = encodeAnswer(value);
      expect(decodeAnswer(encoded.contentType, received(encoded))).toEqual(value);
    }
  });

  it('send each array from its own bytes (a view of a larger buffer too), 8 bytes and the JSON beside them', () => {
    const column = new Float64Array(100_000).map((_, i) => i / 3);
    const view = column.subarray(10, 50_010);
    const encoded = encodeAnswer({ result: { startSec: view } });
    expect(encoded.parts).toContainEqual(new Uint8Array(column.buffer, 80, 400_000));
    expect(encoded.byteLength).toBeLessThan(view.byteLength + 100);
    const back = decodeAnswer(TYPED_FRAME_TYPE, received(encoded)) as {
      result: { startSec: Float64Array };
    };
    expect(back.result.startSec).toEqual(view);
  });

  it('copy small arrays beside the JSON (a digest of hundreds is a few writes), a large odd one padded after it', () => {
    const answer = {
      result: {
        bins: Array.from({ length: 300 }, (_, k) =>
          Float64Array.from({ length: 20 }, (_, i) => k + i / 7),
        ),
        mask: Uint8Array.from({ length: 70_001 }, (_, i) => i % 251),
        after: Float64Array.from([1.5, -2.25]),
        tiny: Uint8Array.from([9]),
      },
    };
    const encoded = encodeAnswer(answer);
    expect(encoded.parts.length).toBeLessThanOrEqual(5);
    expect(encoded.parts.some((part) => part.buffer === answer.result.mask.buffer)).toBe(true);
    expect(decodeAnswer(TYPED_FRAME_TYPE, received(encoded))).toEqual(answer);
  });

  it('send an answer without typed arrays as plain JSON', () => {
    const plain = { result: { series: [1, 2, 3], label: 'ttft', buffer: null } };
    const encoded = encodeAnswer(plain);
    expect(encoded.contentType).toBe('application/json');
    expect(new TextDecoder().decode(received(encoded))).toBe(JSON.stringify(plain));
    expect(decodeAnswer('application/json; charset=utf-8', received(encoded))).toEqual(plain);
  });

  it('refuse a frame whose arrays lie outside it or off their alignment', () => {
    const frame = (json: string, dataBytes: number) => {
      const text = new TextEncoder().encode(json);
      const head = Math.ceil((4 + text.length) / 8) * 8;
      const body = new Uint8Array(head + dataBytes);
      new DataView(body.buffer).setUint32(0, text.length, true);
      body.set(text, 4);
      return body.buffer;
    };
    const at = (offset: number, length: number) =>
      frame(`{"result":{"$typed":"Float64Array","at":${offset},"length":${length}}}`, 16);
    expect(decodeAnswer(TYPED_FRAME_TYPE, at(0, 2))).toEqual({ result: new Float64Array(2) });
    expect(() => decodeAnswer(TYPED_FRAME_TYPE, at(8, 2))).toThrow(/not within the frame/);
    expect(() => decodeAnswer(TYPED_FRAME_TYPE, at(4, 1))).toThrow(/not within the frame/);
    expect(() => decodeAnswer(TYPED_FRAME_TYPE, at(0, -1))).toThrow(/not within the frame/);
    expect(() => decodeAnswer(TYPED_FRAME_TYPE, new ArrayBuffer(2))).toThrow(/length field/);
    const long = new Uint8Array(8);
    new DataView(long.buffer).setUint32(0, 100, true);
    expect(() => decodeAnswer(TYPED_FRAME_TYPE, long.buffer)).toThrow(/past its end/);
    // an object that only looks like a placeholder (an unknown array type) stays an object
    expect(
      decodeAnswer(TYPED_FRAME_TYPE, frame('{"$typed":"BigInt64Array","at":0,"length":1}', 8)),
    ).toEqual({ $typed: 'BigInt64Array', at: 0, length: 1 });
  });
});

/** The encoder as it was (a replacer on every value): the JSON it wrote, arrays in its order. */
function replacerJson(value: unknown): string {
  let at = 0;
  const names = ['Int32Array', 'Float64Array', 'Uint8Array', 'Uint16Array', 'Float32Array'];
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return { $bigint: item.toString() };
    if (!ArrayBuffer.isView(item) || item instanceof DataView) return item;
    if (!names.includes(item.constructor.name)) return item;
    const array = item as Int32Array;
    const placeholder = { $typed: item.constructor.name, at, length: array.length };
    at += Math.ceil(array.byteLength / 8) * 8;
    return placeholder;
  });
}

/** The JSON part of an encoded answer (a frame's head, or the whole of plain JSON). */
function jsonOf(encoded: EncodedAnswer): string {
  const bytes = bytesOf(encoded);
  if (encoded.contentType !== TYPED_FRAME_TYPE) return new TextDecoder().decode(bytes);
  const length = new DataView(bytes.buffer).getUint32(0, true);
  return new TextDecoder().decode(bytes.subarray(4, 4 + length));
}

describe('answers encoded and read without a replacer or reviver on every value', () => {
  const facts = openTraceFile([fixtureSource(resolve(SLIME, 'rollout_agentic.pt'))]);
  const digest = buildPerfDigest(facts.perf);
  const shared = { n: 1 };
  const answers: Record<string, unknown> = {
    'a perf digest (hundreds of small arrays)': { result: digest },
    'row facts': { result: rowFactsOf(facts.store) },
    'a bin click (plain row ids)': { result: Array.from({ length: 5000 }, (_, i) => i * 3) },
    'bigints at the root, in arrays and deep': 2n ** 70n,
    'bigints beside typed arrays': {
      result: [1n, { deep: [Int32Array.from([1, 2]), -(2n ** 64n)] }, 'x', null, shared, shared],
    },
    'look-alikes left as they are': {
      result: { $bigint: 'not digits', text: '$bigint $typed', like: { $typed: 'Nope', at: 0 } },
    },
    'what JSON leaves out or writes as null': {
      result: { f: () => 1, u: undefined, holes: [1, , 3], map: new Map([[1, 2]]) },
    },
    'arrays JSON writes as objects': {
      result: { view: new DataView(new ArrayBuffer(4)), wide: BigInt64Array.from([5n]) },
    },
    'a Date (toJSON) beside a typed array': {
      result: { at: new Date(0), ids: Int32Array.from([7]), big: 3n },
    },
  };
  for (const [name, value] of Object.entries(answers)) {
    it(`writes ${name} as the replacer did, and reads it back as a reviver did`, () => {
      const encoded = encodeAnswer(value);
      expect(jsonOf(encoded)).toBe(replacerJson(value));
      const body = received(encoded);
      const text = jsonOf(encoded);
      const back = decodeAnswer(encoded.contentType, body);
      // the reader as it was: a reviver on every value
      const dataStart = Math.ceil((4 + new TextEncoder().encode(text).length) / 8) * 8;
      const revived = JSON.parse(text, (key, item: unknown) => {
        const placeholder = item as { $typed?: string; at?: number; length?: number } | null;
        if (encoded.contentType === TYPED_FRAME_TYPE && typeof placeholder?.$typed === 'string') {
          const Type = { Int32Array, Float64Array, Uint8Array, Uint16Array, Float32Array }[
            placeholder.$typed as 'Int32Array'
          ];
          if (Type) return new Type(body, dataStart + placeholder.at!, placeholder.length);
        }
        return bigIntBack(key, item);
      });
      expect(back).toEqual(revived);
    });
  }

  it('reads a bigint whose key is written escaped, as JSON.parse reads the key', () => {
    const text = '{"result":[{"\\u0024bigint":"123456789012345678901"},{"$bigint":"x"}]}';
    const body = new TextEncoder().encode(text).buffer;
    expect(decodeAnswer('application/json', body)).toEqual({
      result: [123456789012345678901n, { $bigint: 'x' }],
    });
  });

  it('sends the objects that hold no typed array or bigint as they are (no copy)', () => {
    const rows = [{ a: 1 }, { b: [2, 3] }];
    const value = { result: { rows, ids: Int32Array.from([1]) } };
    const encoded = encodeAnswer(value);
    expect(jsonOf(encoded)).toBe(replacerJson(value));
    expect(value.result.ids).toBeInstanceOf(Int32Array);
  });
});
