import {
  copyFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { PickleCursor } from '../../../src-main/core/formats/pickle/pickle-cursor';
import { readPickle } from '../../../src-main/core/formats/pickle/read-pickle';
import type { ByteSource } from '../../../src-main/core/bytes/byte-source';
import type { PyValue, TensorRef } from '../../../src-main/core/model/py-value';
import {
  PickleReplay,
  type PickleItemAt,
} from '../../../src-main/core/formats/pickle/pickle-replay';
import { readPickleItem } from '../../../src-main/core/formats/pickle/read-pickle-item';
import {
  readSlimeDump,
  readTensorValues,
} from '../../../src-main/core/formats/slime/read-slime-dump';
import { storageStart } from '../../../src-main/core/formats/torch/read-torch-archive';
import { readZipDirectory } from '../../../src-main/core/formats/zip/read-zip-directory';
import { slimeFormat } from '../../../src-main/core/formats/slime/descriptor';
import type { WithBytes } from '../../../src-main/core/model/sample-facts';
// the bench's writer: dumps shaped like slime's (CPython's memo use, batches of 1000)
import { writeSlimeDump } from '../../bench/slime-dump-writer.mjs';
import { readReplaying } from '../../support/read-replaying';
import { reopeningFile } from '../../support/reopening-file';
import { OP, int, key } from '../../support/pickle-opcodes';

// A sample read again alone from its bytes (readPickleItem) must be the sample a whole read of
// the dump gives: interned keys and names it reads by memo slot from samples long before it
// come from the replay, token lists stay byte ranges at the same offsets.
let dir: string;
let path: string;
let source: ByteSource & { close(): void };
const SAMPLES = 2600;
/** a dict samples list's first items appended before its batch ends (firstBatchEarly's default) */
const EARLY = 64;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'replay-'));
  path = join(dir, 'rollout_replay.pt');
  writeSlimeDump(path, Infinity, 80, SAMPLES, { resumedGroups: 3, rolloutId: 2 });
  source = openFileSource(path);
});
afterAll(() => {
  source.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `source` as it is, each read's byte range recorded in `reads` */
function recordingReads(source: ByteSource) {
  const reads: [number, number][] = [];
  const recording: ByteSource = {
    name: source.name,
    path: source.path,
    size: source.size,
    modifiedMs: source.modifiedMs,
    read: (offset, length, into) => {
      reads.push([offset, offset + length]);
      return source.read(offset, length, into);
    },
  };
  return { recording, reads };
}

/** a sample as details show it: its keys but the trace (the reader's depth marks left out) */
const traceless = (sample: PyValue) =>
  Object.fromEntries(
    Object.entries(sample as Record<string, PyValue>).filter(([k]) => k !== 'trace'),
  );

/** the dump read as the app reads it: each sample let go as it completes, where it lies kept */
const readLettingGo = (replay: PickleReplay | undefined) => readReplaying(source, replay, true);

describe('samples read again alone (PickleReplay, readPickleItem)', () => {
  it('every sample after the first batch is told where it lies, and reads back equal to a whole read', () => {
    const whole = readSlimeDump(source).samples;
    expect(whole).toHaveLength(SAMPLES);
    const replay = new PickleReplay();
    const { dump, at } = readLettingGo(replay);
    // the first batch's first EARLY are appended before the list is known; every later one,
    // each batch's last included, is seen as it completes (PickleOptions.firstBatchEarly)
    expect([...at.keys()]).toEqual(Array.from({ length: SAMPLES - EARLY }, (_, k) => EARLY + k));
    expect(dump.samples.slice(EARLY).every((s) => s === null)).toBe(true);
    // what samples read from before they start: keys, names and repeated short values (the
    // writer memoizes labels of up to 1000 distinct values), not the samples
    expect(replay.before.size).toBeGreaterThan(10);
    expect(replay.before.size).toBeLessThan(1100);
    expect([...replay.before.values()].every((v) => typeof v === 'string')).toBe(true);
    for (const [index, where] of at) {
      expect(where).not.toBeNull();
      expect(readPickleItem(source, where!, replay)).toEqual(whole[index]);
    }
  });

  it('a sample holds its token lists as the same byte ranges', () => {
    const whole = readSlimeDump(source).samples as Record<string, PyValue>[];
    const replay = new PickleReplay();
    const { at } = readLettingGo(replay);
    const again = readPickleItem(source, at.get(SAMPLES - 1)!, replay) as Record<string, PyValue>;
    expect(again.tokens).toEqual(whole[SAMPLES - 1].tokens);
    expect(again.tokens).toMatchObject({ $kind: 'lazy-list', length: 80 });
  });

  it('without a replay, nothing is told where it lies', () => {
    const { at } = readLettingGo(undefined);
    expect(at.size).toBe(SAMPLES - EARLY);
    expect([...at.values()].every((where) => where === null)).toBe(true);
  });

  it('a range that is not an item of this file is refused', () => {
    const replay = new PickleReplay();
    expect(() => readPickleItem(source, { start: -1, end: 10, memoSize: 0 }, replay)).toThrow(
      RangeError,
    );
    expect(() =>
      readPickleItem(source, { start: 0, end: source.size + 1, memoSize: 0 }, replay),
    ).toThrow(RangeError);
  });
});

describe('samples pickled as slime Sample objects (NEWOBJ, then BUILD from their dict)', () => {
  let objects: ByteSource & { close(): void };
  beforeAll(() => {
    const objectsPath = join(dir, 'rollout_objects.pt');
    // the same samples as the dict dump above, each pickled as a Sample object
    writeSlimeDump(objectsPath, Infinity, 80, SAMPLES, {
      resumedGroups: 3,
      rolloutId: 2,
      sampleObjects: true,
    });
    objects = openFileSource(objectsPath);
  });
  afterAll(() => objects.close());

  it("read whole, they are the dicts of their attributes: the dict dump's samples, nested objects too", () => {
    // token lists are byte ranges: the same lists at other offsets of the other file
    const withoutOffsets = (samples: PyValue[]) =>
      JSON.parse(
        JSON.stringify(samples, (k, v: unknown) =>
          k === 'byteOffset' || k === 'byteLength' ? undefined : v,
        ),
      ) as unknown;
    const dicts = readSlimeDump(source).samples as Record<string, PyValue>[];
    const samples = readSlimeDump(objects).samples;
    expect(objects.size).toBeGreaterThan(source.size);
    // status a Sample.Status member (its value), and two objects of nested classes more
    const withNested = dicts.map((sample) => ({
      ...sample,
      spec_info: { spec_accept_token_num: 0, spec_draft_token_num: 0, spec_verify_ct: 0 },
      prefix_cache_info: { cached_tokens: 0, total_prompt_tokens: 80 },
    }));
    expect(withoutOffsets(samples)).toEqual(withoutOffsets(withNested));
    expect(samples[SAMPLES - 1]).toMatchObject({ tokens: { $kind: 'lazy-list', length: 80 } });
  });

  it('each is given as soon as it is built, told where it lies, and reads back alone', () => {
    const whole = readSlimeDump(objects).samples;
    const replay = new PickleReplay();
    const { dump, at } = readReplaying(objects, replay, true);
    expect([...at.keys()]).toEqual(Array.from({ length: SAMPLES - 1000 }, (_, k) => 1000 + k));
    expect(dump.samples.slice(1000).every((s) => s === null)).toBe(true);
    // the class is read back by memo slot like the keys
    expect([...replay.before.values()]).toContainEqual(
      expect.objectContaining({ $kind: 'class', module: 'slime.utils.types', name: 'Sample' }),
    );
    const bytes = readFileSync(join(dir, 'rollout_objects.pt'));
    for (const [index, where] of at) {
      // from its class read back (BINGET, LONG_BINGET) to its BUILD
      expect([0x68, 0x6a]).toContain(bytes[where!.start]);
      expect(bytes[where!.end - 1]).toBe(0x62);
      expect(readPickleItem(objects, where!, replay)).toEqual(whole[index]);
    }
  });
});

describe('samples holding tensors (torch storages named by persistent ids)', () => {
  let tensors: ByteSource & { close(): void };
  let bytes: Buffer;
  beforeAll(() => {
    const tensorsPath = join(dir, 'rollout_tensors.pt');
    // the dict dump's samples, each with two tensors whose storages are archive entries
    writeSlimeDump(tensorsPath, Infinity, 80, SAMPLES, {
      resumedGroups: 3,
      rolloutId: 2,
      tensors: true,
    });
    tensors = openFileSource(tensorsPath);
    bytes = readFileSync(tensorsPath);
  });
  afterAll(() => tensors.close());

  /** the storage a sample's tensor names, its bytes as the writer made them ((key + k) & 0xff) */
  const storageOf = (sample: PyValue, field: string) => {
    const tensor = (sample as Record<string, PyValue>)[field] as TensorRef;
    expect(tensor.$kind).toBe('tensor');
    const { key, byteLength } = tensor.storage;
    const start = storageStart(tensors, tensor.storage);
    const data = bytes.subarray(start, start + byteLength);
    expect(data.length).toBe(byteLength);
    expect(data.every((b, k) => b === ((Number(key) + k) & 0xff))).toBe(true);
    return tensor;
  };

  it('each is told where it lies, let go, and reads back alone with its storages found again', () => {
    const whole = readSlimeDump(tensors).samples;
    expect(storageOf(whole[SAMPLES - 1], 'rollout_routed_experts').shape).toEqual([40, 4, 2]);
    const replay = new PickleReplay();
    const { dump, at } = readReplaying(tensors, replay, true);
    expect(replay.persistentLoad).not.toBeNull();
    expect([...at.keys()]).toEqual(Array.from({ length: SAMPLES - EARLY }, (_, k) => EARLY + k));
    expect([...at.values()].every((where) => where !== null)).toBe(true);
    expect(dump.samples.slice(EARLY).every((s) => s === null)).toBe(true);
    for (const [index, where] of at) {
      const again = readPickleItem(tensors, where!, replay);
      expect(again).toEqual(whole[index]);
      storageOf(again, 'rollout_routed_experts');
      storageOf(again, 'teacher_log_probs');
    }
  });

  it("opening reads no storage's bytes, nor its entry's header: only a tensor's values do", () => {
    const { recording, reads } = recordingReads(tensors);
    const whole = readSlimeDump(recording).samples;
    const storages = readZipDirectory(tensors).filter((e) => e.name.includes('/data/'));
    expect(storages).toHaveLength(SAMPLES * 2);
    const inStorages = (at: [number, number]) =>
      storages.some(
        (e) => at[0] < e.localHeaderOffset + 64 + e.size && at[1] > e.localHeaderOffset,
      );
    expect(reads.filter(inStorages)).toEqual([]);
    // its values read from where its entry says its bytes start
    const tensor = (whole[SAMPLES - 1] as Record<string, PyValue>).teacher_log_probs as TensorRef;
    const values = readTensorValues(tensors, tensor);
    expect(values).toHaveLength(40);
    const start = storageStart(tensors, tensor.storage);
    const stored = Uint8Array.from(bytes.subarray(start, start + 160));
    expect(values).toEqual(Array.from(new Float32Array(stored.buffer)));
  });

  it('progress runs to the end of the file as its samples are read (its storages are never read)', () => {
    const reading: number[] = [];
    slimeFormat.open([tensors], {
      onProgress: (p) => {
        if (p.phase === 'reading') reading.push(p.bytesRead);
      },
    });
    // the samples' pickle is under two thirds of this file: read up to its end, the file is done
    const pickleEnd = Math.min(
      ...readZipDirectory(tensors)
        .filter((e) => e.name.includes('/data/'))
        .map((e) => e.localHeaderOffset),
    );
    expect(pickleEnd).toBeLessThan(tensors.size * 0.7);
    expect(reading.length).toBeGreaterThan(3);
    expect(reading.every((b, k) => k === 0 || b >= reading[k - 1])).toBe(true);
    expect(Math.max(...reading)).toBeLessThanOrEqual(tensors.size);
    // on its way there, not stopped at the pickle's end and then done at once
    expect(reading.some((b) => b > tensors.size * 0.8 && b < tensors.size)).toBe(true);
  });

  it('an open dump reads them again from the file, tensors and all', () => {
    const whole = readSlimeDump(tensors).samples;
    const opened = slimeFormat.open([tensors], {});
    const { recording, reads } = recordingReads(tensors);
    const withBytes: WithBytes = (use) => use(recording);
    for (const i of [0, EARLY - 1, EARLY, 999, 1000, 1500, SAMPLES - 1]) {
      const before = reads.length;
      expect(opened.samples.read(i, withBytes)).toEqual(traceless(whole[i]));
      expect(reads.length > before).toBe(i >= EARLY);
    }
  });
});

// Opcode by opcode: where an item is said to lie, and the items that cannot be read alone.
const { EMPTY_LIST, EMPTY_DICT, MARK, APPENDS, SETITEMS, BINPUT, BINGET, BINPERSID } = OP;
/** {'i': i, 'name': <slot 0 read back>, ...more} */
const item = (i: number, more: number[] = []) => [
  EMPTY_DICT,
  MARK,
  ...key('i'),
  ...int(i),
  BINGET,
  0, // 'name', written once by the first item
  ...key('x'),
  ...more,
  SETITEMS,
];
const first = [EMPTY_DICT, MARK, ...key('name'), BINPUT, 0, ...key('x'), SETITEMS];

function readItems(body: number[], replay = new PickleReplay()) {
  const bytes = new Uint8Array([0x80, 2, EMPTY_LIST, MARK, ...first, APPENDS, ...body, 0x2e]);
  const source = bytesSource('items.pkl', bytes);
  const given: { index: number; at: PickleItemAt | null }[] = [];
  const value = readPickle(new PickleCursor(source, 0, 0), {
    replay,
    onAppend: () => true,
    onListItem: (_list, index, dict, _forget, at) => {
      given.push({ index, at });
      return dict;
    },
    persistentLoad: (pid) => ({
      $kind: 'object',
      module: 'torch',
      name: 'storage',
      args: [pid],
      state: undefined,
    }),
  }).value as PyValue[];
  return { bytes, source, replay, given, value };
}

describe('where an item lies, opcode by opcode', () => {
  it('from its EMPTY_DICT to the next item or the APPENDS, and it reads back alone', () => {
    const a = item(1);
    const b = item(2);
    const { bytes, source, replay, given, value } = readItems([MARK, ...a, ...b, APPENDS]);
    const start = 2 + 1 + 1 + first.length + 1 + 1; // PROTO, EMPTY_LIST, MARK, first, APPENDS, MARK
    expect(given).toEqual([
      { index: 1, at: { start, end: start + a.length, memoSize: 1 } },
      { index: 2, at: { start: start + a.length, end: start + a.length + b.length, memoSize: 1 } },
    ]);
    expect(bytes[start + a.length + b.length]).toBe(APPENDS);
    // slot 0 ('name') was read from before the items started
    expect([...replay.before]).toEqual([[0, 'name']]);
    expect(readPickleItem(source, given[1].at!, replay)).toEqual(value[2]);
    expect(value[2]).toEqual({ i: 2, name: 'x' });
  });

  it('an item that reads a container of an earlier one, or loads a persistent id, cannot be read alone', () => {
    const sharing = [...item(1), BINPUT, 1]; // the dict itself as slot 1
    const shared = item(2, [...key('again'), BINGET, 1]);
    const persistent = item(3, [...key('t'), ...key('pid'), BINPERSID]);
    const { given } = readItems([MARK, ...sharing, ...shared, ...persistent, ...item(4), APPENDS]);
    expect(given.map((g) => [g.index, g.at !== null])).toEqual([
      [1, true],
      [2, false],
      [3, false],
      [4, true],
    ]);
  });

  it('an item that reads back a numpy dtype an earlier one made is read alone; another object is not', () => {
    const [GLOBAL, REDUCE, BUILD, TUPLE1, NONE] = [0x63, 0x52, 0x62, 0x85, 0x4e];
    const global = (name: string) => [
      GLOBAL,
      ...new TextEncoder().encode(name.replace('.', '\n') + '\n'),
    ];
    // numpy.dtype('f4') as the pickler writes it (REDUCE, memoized, then BUILD from its state),
    // and an object of an unknown class the same way
    const made = (name: string, slot: number) => [
      ...global(name),
      ...key('f4'),
      TUPLE1,
      REDUCE,
      BINPUT,
      slot,
      NONE,
      BUILD,
    ];
    const first = item(1, [
      ...key('d'),
      ...made('numpy.dtype', 5),
      ...key('o'),
      ...made('m.Thing', 6),
    ]);
    const dtype = item(2, [...key('d'), BINGET, 5]);
    const thing = item(3, [...key('o'), BINGET, 6]);
    const { source, replay, given, value } = readItems([
      MARK,
      ...first,
      ...dtype,
      ...thing,
      APPENDS,
    ]);
    expect(given.map((g) => [g.index, g.at !== null])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
    expect(value[2]).toMatchObject({
      i: 2,
      name: 'x',
      d: { $kind: 'object', module: 'numpy', name: 'dtype', args: ['f4'] },
    });
    expect(readPickleItem(source, given[1].at!, replay)).toEqual(value[2]);
  });

  it('an item that loads a persistent id the replay can load again is read alone, loading it again', () => {
    const persistent = item(1, [...key('t'), ...key('pid'), BINPERSID]);
    const loads: PyValue[] = [];
    const replay = new PickleReplay();
    replay.persistentLoad = (pid) => {
      loads.push(pid);
      return { $kind: 'object', module: 'torch', name: 'again', args: [pid], state: undefined };
    };
    const { source, given, value } = readItems([MARK, ...persistent, ...item(2), APPENDS], replay);
    expect(given.map((g) => [g.index, g.at !== null])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(loads).toEqual([]); // the first read loads by its own persistentLoad
    expect(readPickleItem(source, given[0].at!, replay)).toEqual({
      ...(value[1] as object),
      t: { $kind: 'object', module: 'torch', name: 'again', args: ['pid'], state: undefined },
    });
    expect(loads).toEqual(['pid']);
  });

  it('an object item (class, NEWOBJ, BUILD) lies from its class to its BUILD; one built after another value is not told', () => {
    const [GLOBAL, EMPTY_TUPLE, NEWOBJ, BUILD] = [0x63, 0x29, 0x81, 0x62];
    const klass = [GLOBAL, ...new TextEncoder().encode('m\nSample\n'), BINPUT, 9];
    const object = (i: number) => [BINGET, 9, EMPTY_TUPLE, NEWOBJ, ...item(i), BUILD];
    // the class written once (GLOBAL, BINPUT 9), read back by the later items
    const firstObject = [...klass, EMPTY_TUPLE, NEWOBJ, ...item(1), BUILD];
    const second = object(2);
    const afterValue = [...int(7), ...object(3)];
    const { bytes, source, replay, given, value } = readItems([
      MARK,
      ...firstObject,
      ...second,
      ...afterValue,
      ...object(4),
      // an object never built, then a dict: its dict is no item start, nor is it told
      BINGET,
      9,
      EMPTY_TUPLE,
      NEWOBJ,
      ...item(5),
      ...object(6),
      APPENDS,
    ]);
    expect(given.map((g) => [g.index, g.at !== null])).toEqual([
      [1, true],
      [2, true],
      [4, false],
      [5, true],
      [8, false],
    ]);
    expect(value[6]).toMatchObject({ $kind: 'object', module: 'm', name: 'Sample' });
    expect(value.slice(7)).toEqual([
      { i: 5, name: 'x' },
      { i: 6, name: 'x' },
    ]);
    const at2 = given[1].at!;
    expect(bytes[at2.start]).toBe(BINGET);
    expect(bytes[at2.end - 1]).toBe(BUILD);
    expect(readPickleItem(source, at2, replay)).toEqual(value[2]);
    expect(value.slice(1, 6)).toEqual([
      { i: 1, name: 'x' },
      { i: 2, name: 'x' },
      7,
      { i: 3, name: 'x' },
      { i: 4, name: 'x' },
    ]);
  });

  it('a memo slot written again after items read it is a coded error', () => {
    const rewrite = item(2, [...key('y'), BINPUT, 0]);
    expect(() => readItems([MARK, ...item(1), ...rewrite, APPENDS])).toThrow(
      expect.objectContaining({ code: 'pickle/memo-rewritten' }),
    );
  });
});

describe('an open dump keeps its samples in the file (slime descriptor)', () => {
  /** a sample as details show it: its keys but the trace (the reader's depth marks left out) */
  it('reads every sample after the first batch again from the file, the same as a whole read', () => {
    const whole = readSlimeDump(source).samples;
    const opened = slimeFormat.open([source], {});
    expect(opened.samples.count).toBe(SAMPLES);
    // the file's bytes read: a kept sample's file is only looked at (its size and time)
    const { recording, reads } = recordingReads(source);
    const withBytes: WithBytes = (use) => use(recording);
    for (let i = 0; i < SAMPLES; i++) {
      const before = reads.length;
      expect(opened.samples.read(i, withBytes)).toEqual(traceless(whole[i]));
      // the first batch's first EARLY were appended before the list was known: kept; the
      // rest read again
      expect(reads.length > before).toBe(i >= EARLY);
    }
    expect(opened.samples.read(SAMPLES, withBytes)).toBeUndefined();
  });

  it('keeps the samples of bytes that are not a file on disk (an upload)', () => {
    const bytes = source.read(0, source.size);
    const upload = bytesSource('upload.pt', bytes);
    const opened = slimeFormat.open([upload], {});
    const withBytes: WithBytes = () => {
      throw new Error('an upload is never read again');
    };
    const whole = readSlimeDump(upload).samples;
    expect(opened.samples.read(SAMPLES - 1, withBytes)).toEqual(traceless(whole[SAMPLES - 1]));
  });
});

describe('a dump that changed on disk after it was opened', () => {
  it('a sample read again is a coded error naming the file, not a wrong sample', () => {
    const copy = join(dir, 'changed.pt');
    copyFileSync(path, copy);
    const file = openFileSource(copy);
    try {
      const opened = slimeFormat.open([file], {});
      const withBytes: WithBytes = (use) => use(file);
      expect(opened.samples.read(SAMPLES - 1, withBytes)).toBeDefined();
      // rewritten: the same size, other bytes where the samples lie
      const bytes = readFileSync(copy);
      bytes.fill(0xff, Math.floor(bytes.length / 2), bytes.length - 1024);
      writeFileSync(copy, bytes);
      expect(() => opened.samples.read(SAMPLES - 1, withBytes)).toThrow(
        expect.objectContaining({
          code: 'slime/sample-changed',
          message: expect.stringContaining('changed.pt'),
        }),
      );
      // truncated: the sample's bytes are gone; opened again, the file says so by its size
      truncateSync(copy, 4096);
      expect(() => opened.samples.read(SAMPLES - 1, withBytes)).toThrow(
        expect.objectContaining({ code: 'slime/sample-changed' }),
      );
      const reopening = reopeningFile(copy);
      expect(() => opened.samples.read(SAMPLES - 1, reopening)).toThrow(
        expect.objectContaining({
          code: 'slime/sample-changed',
          message: expect.stringContaining('bytes then, 4096 now'),
        }),
      );
      // a sample kept in memory (the first batch) keeps its token lists as byte ranges of the
      // file: it says the file changed too, rather than show another sample's tokens later
      expect(() => opened.samples.read(5, reopening)).toThrow(
        expect.objectContaining({ code: 'slime/sample-changed' }),
      );
    } finally {
      file.close();
    }
  });

  it('a file written again at the same size since it was opened says so, by its modification time', () => {
    const copy = join(dir, 'rewritten.pt');
    copyFileSync(path, copy);
    const reopening = reopeningFile(copy);
    const opened = slimeFormat.open([openFileSource(copy)], {});
    expect(opened.samples.read(SAMPLES - 1, reopening)).toMatchObject({ index: SAMPLES - 1 });
    expect(opened.samples.read(5, reopening)).toMatchObject({ index: 5 });
    // another dump of the same size in its place (here the same bytes, written a minute later):
    // its bytes would read as some sample, not necessarily this one
    writeFileSync(copy, readFileSync(path));
    const later = new Date(Date.now() + 60_000);
    utimesSync(copy, later, later);
    expect(() => opened.samples.read(SAMPLES - 1, reopening)).toThrow(
      expect.objectContaining({
        code: 'slime/sample-changed',
        message: expect.stringContaining(`modified at ${later.toISOString().slice(0, 16)}`),
      }),
    );
    expect(() => opened.samples.read(5, reopening)).toThrow(
      expect.objectContaining({ code: 'slime/sample-changed' }),
    );
  });
});
