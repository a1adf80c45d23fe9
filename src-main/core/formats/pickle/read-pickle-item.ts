import { AsciiStringCache } from '../../bytes/ascii-string-cache';
import type { ByteSource } from '../../bytes/byte-source';
import type { PyValue } from '../../model/py-value';
import { PickleCursor } from './pickle-cursor';
import type { PickleItemAt, PickleReplay } from './pickle-replay';
import { readPickle } from './read-pickle';

const STOP = 0x2e;

/** one table of short strings for every item read again in this thread (strings are values) */
const shortStrings = new AsciiStringCache();

/**
 * One item of a list read again from the file's bytes alone: its opcodes [at.start, at.end)
 * then STOP, with the memo slots it reads from before its start taken from `replay`. Byte
 * ranges it holds (lazy lists, tensors' storages) are offsets in `bytes`, as in the first read.
 */
export function readPickleItem(bytes: ByteSource, at: PickleItemAt, replay: PickleReplay): PyValue {
  const length = at.end - at.start;
  if (!(at.start >= 0 && length > 0 && at.end <= bytes.size))
    throw new RangeError(`no item at ${at.start}-${at.end} of ${bytes.name}`);
  const item: ByteSource = {
    name: bytes.name,
    size: length + 1,
    read(offset, n) {
      const end = Math.min(offset + n, length + 1);
      if (end <= length) return bytes.read(at.start + offset, end - offset);
      const out = new Uint8Array(Math.max(0, end - offset));
      if (offset < length) out.set(bytes.read(at.start + offset, length - offset));
      out[out.length - 1] = STOP;
      return out;
    },
  };
  return readPickle(new PickleCursor(item, 0, at.start), {
    persistentLoad: replay.persistentLoad ?? undefined,
    memoBefore: (index) => replay.before.get(index),
    memoSizeAtStart: at.memoSize,
    shortStrings,
  }).value;
}
