import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { PickleCursor } from '../../../src-main/core/formats/pickle/pickle-cursor';
import { readPickle } from '../../../src-main/core/formats/pickle/read-pickle';
import { OP, int, key } from '../../support/pickle-opcodes';

// A list of objects (class, NEWOBJ, BUILD from a dict, as slime's Sample objects are pickled),
// each let go as soon as it is built: the reader must not hold the objects it made on the way
// (its map from memoized objects to their slots once kept every one to the end of the read).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const { EMPTY_LIST, EMPTY_DICT, MARK, APPENDS, SETITEM, STOP, BINPUT, BINGET } = OP;
const [GLOBAL, EMPTY_TUPLE, NEWOBJ, BUILD, LONG_BINPUT] = [0x63, 0x29, 0x81, 0x62, 0x72];
const OBJECTS = 200_000;

function objectsPickle(): Uint8Array {
  const out: number[] = [0x80, 2, EMPTY_LIST, BINPUT, 0, MARK];
  out.push(GLOBAL, ...new TextEncoder().encode('m\nSample\n'), BINPUT, 1);
  let slot = 2;
  const object = (i: number) => {
    // each object and its dict memoized, as CPython's pickler does
    const put = () => out.push(LONG_BINPUT, slot & 0xff, (slot >> 8) & 0xff, slot >> 16, 0);
    out.push(EMPTY_TUPLE, NEWOBJ);
    put();
    slot++;
    out.push(EMPTY_DICT);
    put();
    slot++;
    out.push(...key('i'), ...int(i % 200), SETITEM, BUILD);
  };
  object(0);
  out.push(APPENDS, MARK);
  for (let i = 1; i < OBJECTS; i++) {
    out.push(BINGET, 1);
    object(i);
    if (i % 1000 === 0) out.push(APPENDS, MARK);
  }
  out.push(APPENDS, STOP);
  return new Uint8Array(out);
}

describe('objects of a watched list, let go as they are built', () => {
  it('leave no memory behind while the list is read', () => {
    const source = bytesSource('objects.pkl', objectsPickle());
    gc();
    const before = process.memoryUsage().heapUsed;
    let during = 0;
    let given = 0;
    readPickle(new PickleCursor(source, 0, 0), {
      onAppend: (_list, _depth, forgetFinished) => {
        forgetFinished();
        return true;
      },
      onListItem: (_list, index, _item, forgetFinished) => {
        given++;
        forgetFinished();
        if (index === OBJECTS - 1) {
          gc();
          during = process.memoryUsage().heapUsed;
        }
        return null;
      },
    });
    expect(given).toBeGreaterThan(OBJECTS - 1000);
    // the list's 200k nulls (1.6 MB) and the memo's settled slots, not 200k objects (40 MB)
    expect(during - before).toBeLessThan(12 * 1024 * 1024);
  });
});
