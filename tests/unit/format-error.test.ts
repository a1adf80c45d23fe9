import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src-main/core/bytes/format-error';
import { bytesSource } from '../../src-main/core/bytes/byte-source';

describe('FormatError', () => {
  it('carries a code and the byte offset in its message', () => {
    const error = new FormatError('zip/eocd-not-found', 'no end of central directory', 1234);
    expect(error.code).toBe('zip/eocd-not-found');
    expect(error.offset).toBe(1234);
    expect(error.message).toContain('at byte 1234');
  });
});

describe('bytesSource', () => {
  it('clamps reads to the end of the bytes', () => {
    const source = bytesSource('x', new Uint8Array([1, 2, 3, 4]));
    expect(Array.from(source.read(2, 10))).toEqual([3, 4]);
    expect(source.read(10, 2).byteLength).toBe(0);
  });
});
