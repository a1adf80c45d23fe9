import { describe, expect, it } from 'vitest';
import {
  TYPED_FRAME_TYPE,
  decodeAnswer,
  encodeAnswer,
  type EncodedAnswer,
} from '../../../src-main/core/api/typed-json';
import { bytesOf } from '../../support/serve-call';

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
