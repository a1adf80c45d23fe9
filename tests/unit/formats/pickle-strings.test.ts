import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { PickleCursor } from '../../../src-main/core/formats/pickle/pickle-cursor';
import { readPickle } from '../../../src-main/core/formats/pickle/read-pickle';

// String opcodes are read where they lie in the cursor's window (PickleCursor.text): short
// ASCII ones hashed in place and shared through a cache, anything else decoded as UTF-8. These
// pickles are written opcode by opcode, with the texts CPython would give for their bytes.

const PROTO = [0x80, 2];
const EMPTY_LIST = 0x5d;
const MARK = 0x28;
const APPENDS = 0x65;
const POP = 0x30;
const STOP = 0x2e;
/** the cursor's window (pickle-cursor.ts): a string placed across its end is read whole */
const WINDOW = 8 * 1024 * 1024;

/** SHORT_BINUNICODE (under 256 bytes) or BINUNICODE of raw UTF-8 bytes */
function unicode(bytes: Uint8Array): number[] {
  if (bytes.length < 256) return [0x8c, bytes.length, ...bytes];
  const n = new Uint8Array(4);
  new DataView(n.buffer).setUint32(0, bytes.length, true);
  return [0x58, ...n, ...bytes];
}
const utf8 = (text: string) => new TextEncoder().encode(text);

/** BINBYTES of n zero bytes, popped: moves the strings after it to where a test wants them */
function filler(n: number): Uint8Array {
  const out = new Uint8Array(5 + n + 1);
  out[0] = 0x42;
  new DataView(out.buffer).setUint32(1, n, true);
  out[5 + n] = POP;
  return out;
}

function listOf(strings: number[][], before: Uint8Array = new Uint8Array(0)): Uint8Array {
  const tail = [EMPTY_LIST, MARK, ...strings.flat(), APPENDS, STOP];
  const out = new Uint8Array(PROTO.length + before.length + tail.length);
  out.set(PROTO, 0);
  out.set(before, PROTO.length);
  out.set(tail, PROTO.length + before.length);
  return out;
}

function read(bytes: Uint8Array) {
  return readPickle(new PickleCursor(bytesSource('strings.pkl', bytes), 0, 0)).value;
}

describe('pickle string opcodes', () => {
  it('reads ASCII and UTF-8, short and long, repeated, as the texts their bytes hold', () => {
    const texts = [
      'span_id',
      'span_id',
      '',
      'dfcb43f4caa740bbbd864546e2349083',
      'dfcb43f4caa740bbbd864546e2349083',
      // 32 to 48 bytes: made without the table (ids), ASCII or not
      'e'.repeat(40),
      'é'.repeat(20),
      'é' + 'x'.repeat(32),
      'x'.repeat(48),
      'y'.repeat(49),
      'Question 0: compute 868 * 822.'.repeat(3),
      'é',
      'naïve ünïcode',
      '数学'.repeat(30),
      'sglang_generate',
    ];
    expect(read(listOf(texts.map((t) => unicode(utf8(t)))))).toEqual(texts);
  });

  it('reads bytes that are not UTF-8 as the decoder does (replacement characters)', () => {
    const bad = new Uint8Array([0x61, 0xff, 0x62, 0xc3]);
    const long = new Uint8Array(60).fill(0x61);
    long[30] = 0xfe;
    // an id's length (32 to 48 bytes), read without the table
    const id = new Uint8Array(36).fill(0x62);
    id[35] = 0xc3;
    const decoder = new TextDecoder('utf-8', { fatal: false });
    expect(read(listOf([unicode(bad), unicode(long), unicode(id)]))).toEqual([
      decoder.decode(bad),
      decoder.decode(long),
      decoder.decode(id),
    ]);
  });

  it('reads a string that straddles the end of the cursor’s window', () => {
    const texts = ['trace_id', 'straddling_the_window_edge', 'é_after'];
    // the list's opcodes start 3 bytes after the filler; the second string starts 10 bytes
    // before the window's end
    const first = unicode(utf8(texts[0]));
    const start = WINDOW - 10 - first.length - 2 - PROTO.length - 6;
    const value = read(
      listOf([first, ...texts.slice(1).map((t) => unicode(utf8(t)))], filler(start)),
    );
    expect(value).toEqual(texts);
  });

  it('a string claiming more bytes than the file has is a truncated pickle', () => {
    const bytes = new Uint8Array([...PROTO, 0x8c, 40, 0x61, 0x62, 0x63]);
    let caught: unknown;
    try {
      read(bytes);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(FormatError);
    expect((caught as FormatError).code).toBe('pickle/truncated');
  });
});
