import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { PickleCursor } from '../../../src-main/core/formats/pickle/pickle-cursor';
import { readPickle } from '../../../src-main/core/formats/pickle/read-pickle';
import { slimeFormat } from '../../../src-main/core/formats/slime/descriptor';
import { isDict, pyKind, type PyDict } from '../../../src-main/core/model/py-value';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { PickleWriter, type Py } from '../hostile/pickle-writer';
import { slimeDump } from '../hostile/container-writers';

// Tagged values (a lazy list, a tensor, a class) are objects with a `$kind` field; a Python
// dict is a dict whatever its keys, "$kind" included. A dict with that key once read as a
// tagged value: a sample holding one had no row, an event's attrs holding one were dropped.
describe('a dict with a "$kind" key is a dict', () => {
  it('read from a pickle', () => {
    const bytes = new PickleWriter()
      .proto()
      .py([{ $kind: 'lazy-list', length: 5, byteOffset: 0, byteLength: 99 }, { $kind: 'class' }])
      .stop()
      .bytes();
    const value = readPickle(new PickleCursor(bytesSource('p', bytes), 0, 0)).value as PyDict[];
    expect(value.map((d) => isDict(d))).toEqual([true, true]);
    expect(value.map((d) => pyKind(d))).toEqual([undefined, undefined]);
    expect(value[0]).toEqual({ $kind: 'lazy-list', length: 5, byteOffset: 0, byteLength: 99 });
    // a tagged value made by the reader still reads as one
    expect(pyKind({ $kind: 'lazy-list', length: 1 } as never)).toBe('lazy-list');
  });

  it('a sample and an event’s attrs holding the key open as they are', () => {
    const events: Py[] = [
      {
        type: 'span_start',
        name: 'generate',
        span_id: 'a',
        ts: 1,
        attrs: { $kind: 'tensor', n: 2 },
      },
      { type: 'span_end', name: 'generate', span_id: 'a', ts: 3, attrs: { $kind: 'object' } },
    ];
    const bytes = slimeDump((w) => w.py([{ index: 0, $kind: 'set', trace: { events } }]));
    const opened = slimeFormat.open([bytesSource('kind.pt', bytes)], {});
    expect(opened.rows).toHaveLength(1);
    expect(opened.untracedSamples).toBe(0);
    const [span] = unpackRow(opened.rows[0]).items;
    expect(span).toMatchObject({
      name: 'generate',
      start_ts: 1,
      end_ts: 3,
      attrs: { start_attrs: { $kind: 'tensor', n: 2 }, end_attrs: { $kind: 'object' } },
    });
    expect(opened.samples.read(0, () => undefined as never)).toMatchObject({ $kind: 'set' });
  });
});
