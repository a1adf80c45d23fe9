import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { DICT_PROTO } from '../../../src-main/core/model/py-value';
import { describe, expect, it } from 'vitest';
import {
  readSlimeDump,
  readLazyList,
  readTensorValues,
} from '../../../src-main/core/formats/slime/read-slime-dump';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { bytesSource, type ByteSource } from '../../../src-main/core/bytes/byte-source';
import { PickleCursor } from '../../../src-main/core/formats/pickle/pickle-cursor';
import { readPickle } from '../../../src-main/core/formats/pickle/read-pickle';
import { PickleReplay } from '../../../src-main/core/formats/pickle/pickle-replay';
import { readReplaying } from '../../support/read-replaying';
import { readPickleItem } from '../../../src-main/core/formats/pickle/read-pickle-item';
import type { LazyList, PyObjectRef, TensorRef } from '../../../src-main/core/model/py-value';
import { SLIME, fixtureSource, readJson, slimeFixturesWithExpected } from '../../support/fixtures';
import { PickleWriter } from '../hostile/pickle-writer';
import { legacyTorch } from '../hostile/container-writers';
import { slimeFormat } from '../../../src-main/core/formats/slime/descriptor';
import { buildRows } from '../../../src-main/core/rows/build-rows';
import { buildPdView } from '../../../src-main/core/rows/pd-lanes';
import { unpackRow } from '../../../src-main/core/rows/packed-items';

type Sample = Record<string, unknown> & { trace?: { events: unknown[]; trace_id: string } };
const samplesOf = (name: string) =>
  readSlimeDump(fixtureSource(resolve(SLIME, name))).samples as Sample[];

function expectFormatError(fn: () => unknown, code: string | RegExp): FormatError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).code).toMatch(code);
    return error as FormatError;
  }
  throw new Error('expected a FormatError');
}

describe('every valid fixture reads to the samples slime saw', () => {
  for (const fixture of slimeFixturesWithExpected()) {
    it(fixture.name, () => {
      const expected = readJson<{
        rows: {
          row_id: number;
          sample_index: unknown;
          status: string;
          reward: unknown;
          trace_id: string;
        }[];
      }>(fixture.expectedPath);
      const samples = readSlimeDump(fixtureSource(fixture.path)).samples as Sample[];
      for (const row of expected.rows) {
        const sample = samples[row.row_id];
        expect(sample.index ?? null).toEqual(row.sample_index);
        expect(sample.status).toBe(row.status);
        expect(sample.reward).toEqual(row.reward);
        expect(sample.trace?.trace_id).toBe(row.trace_id);
      }
    });
  }
});

describe('layouts and shapes', () => {
  it('the legacy (non-zip) layout reads like the zip layout', () => {
    const dump = readSlimeDump(fixtureSource(resolve(SLIME, 'legacy_format.pt')));
    expect(dump.layout).toBe('legacy');
    expect(dump.shape).toBe('wrapped');
    expect(dump.samples).toHaveLength(16);
  });

  it('a bare list of samples has no rollout id', () => {
    const dump = readSlimeDump(fixtureSource(resolve(SLIME, 'bare_list.pt')));
    expect(dump.shape).toBe('bare-list');
    expect(dump.rolloutId).toBeNull();
  });

  it('pickled Sample objects read as dicts, the Status enum as its value', () => {
    const samples = samplesOf('sample_objects.pt');
    // nothing inherited: the one prototype is empty, frozen and has no prototype itself
    const proto = Object.getPrototypeOf(samples[0]) as object;
    expect(Object.getPrototypeOf(proto)).toBeNull();
    expect(Object.getOwnPropertyNames(proto)).toEqual([]);
    expect(Object.isFrozen(proto)).toBe(true);
    expect('toString' in samples[0]).toBe(false);
    const dict = samples[0] as Record<string, unknown>;
    dict['__proto__'] = { polluted: true };
    expect(Object.keys(dict)).toContain('__proto__');
    expect(Object.getPrototypeOf(dict)).toBe(proto);
    expect(['completed', 'truncated', 'aborted']).toContain(samples[0].status);
    expect(typeof samples[0].spec_info).toBe('object');
  });

  it('token lists stay byte ranges and load on request', () => {
    const source = fixtureSource(resolve(SLIME, 'rollout_small.pt'));
    const sample = readSlimeDump(source).samples[0] as Sample;
    const tokens = sample.tokens as LazyList;
    expect(tokens.$kind).toBe('lazy-list');
    const values = readLazyList(source, tokens);
    expect(values).toHaveLength(tokens.length);
    expect(values.every(Number.isInteger)).toBe(true);
    const withLogProbs = readSlimeDump(source).samples.find(
      (s) => (s as Sample).rollout_log_probs,
    ) as Sample;
    const logProbs = withLogProbs.rollout_log_probs as LazyList;
    expect(logProbs.elemType).toBe('float');
    expect(readLazyList(source, logProbs).every((v) => v <= 0)).toBe(true);
  });

  it('tensors show dtype and shape, and their values load on demand', () => {
    const source = fixtureSource(resolve(SLIME, 'rollout_tensors.pt'));
    const sample = readSlimeDump(source).samples[0] as Sample;
    const experts = sample.rollout_routed_experts as TensorRef;
    expect(experts.$kind).toBe('tensor');
    expect(experts.dtype).toBe('int32');
    expect(experts.shape.slice(1)).toEqual([4, 2]);
    const pixels = (sample.multimodal_train_inputs as Record<string, TensorRef>).pixel_values;
    expect(pixels.dtype).toBe('float32');
    expect(pixels.shape).toEqual([1, 3, 8, 8]);
    expect(readTensorValues(source, pixels)).toHaveLength(192);
    const metadata = sample.metadata as Record<string, unknown>;
    expect(typeof metadata.difficulty_np).toBe('number');
  });

  it('reads the same through a source that serves tiny reads', () => {
    const bytes = new Uint8Array(readFileSync(resolve(SLIME, 'rollout_small.pt')));
    const whole = bytesSource('x', bytes);
    const tiny: ByteSource = {
      name: 'x',
      size: bytes.length,
      read: (o, n) => whole.read(o, n).slice(),
    };
    expect(JSON.stringify(readSlimeDump(tiny).samples)).toBe(
      JSON.stringify(readSlimeDump(whole).samples),
    );
  });
});

describe('bad input: a clear error with a code and an offset, never a crash', () => {
  it('truncated.pt: no central directory', () => {
    const error = expectFormatError(
      () => readSlimeDump(fixtureSource(resolve(SLIME, 'truncated.pt'))),
      'zip/eocd-not-found',
    );
    expect(error.offset).toBe(85853);
  });

  it('not_a_dump.pt: random bytes are not a torch file', () => {
    expectFormatError(
      () => readSlimeDump(fixtureSource(resolve(SLIME, 'not_a_dump.pt'))),
      'slime/not-a-dump',
    );
  });

  it('empty_samples.pt opens with no samples; no_trace.pt with samples but no traces', () => {
    expect(samplesOf('empty_samples.pt')).toHaveLength(0);
    const samples = samplesOf('no_trace.pt');
    expect(samples).toHaveLength(8);
    expect(samples.every((s) => s.trace === undefined)).toBe(true);
  });

  it('evil.pt opens without running anything and shows its inert object', () => {
    rmSync('/tmp/pwned', { force: true });
    const samples = samplesOf('evil.pt');
    const note = (samples[0].metadata as Record<string, unknown>).note as PyObjectRef;
    expect(note).toMatchObject({
      $kind: 'object',
      module: 'os',
      name: 'system',
      args: ['touch /tmp/pwned'],
    });
    expect(existsSync('/tmp/pwned')).toBe(false);
  });
});

describe('pickle opcodes of protocols 2 to 5, as data', () => {
  const run = (bytes: number[]) =>
    readPickle(new PickleCursor(bytesSource('p', new Uint8Array(bytes)), 0, 0)).value;
  const text = (s: string) => [...Buffer.from(s)];

  it('protocol 4: FRAME, SHORT_BINUNICODE, MEMOIZE, EMPTY_DICT, SETITEMS', () => {
    // {"a": 1, "__proto__": "x"}
    const value = run([
      0x80,
      4,
      0x95,
      20,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0x7d,
      0x94,
      0x28,
      0x8c,
      1,
      ...text('a'),
      0x4b,
      1,
      0x8c,
      9,
      ...text('__proto__'),
      0x8c,
      1,
      ...text('x'),
      0x75,
      0x2e,
    ]) as Record<string, unknown>;
    expect(value.a).toBe(1);
    expect(Object.keys(value)).toContain('__proto__');
    expect(value.__proto__).toBe('x');
    expect(Object.getPrototypeOf(value)).toBe(DICT_PROTO);
  });

  it('protocol 5: BYTEARRAY8 and a frozenset', () => {
    const value = run([
      0x80, 5, 0x96, 2, 0, 0, 0, 0, 0, 0, 0, 7, 8, 0x28, 0x4b, 1, 0x91, 0x86, 0x2e,
    ]) as unknown[];
    expect(Array.from(value[0] as Uint8Array)).toEqual([7, 8]);
    expect(value[1]).toEqual({ $kind: 'set', frozen: true, items: [1] });
  });

  it('protocol 3: BINBYTES and LONG1 beyond 2^53 as a bigint', () => {
    const value = run([
      0x80, 3, 0x42, 1, 0, 0, 0, 9, 0x8a, 8, 0, 0, 0, 0, 0, 0, 0, 0x40, 0x86, 0x2e,
    ]) as unknown[];
    expect(Array.from(value[0] as Uint8Array)).toEqual([9]);
    expect(value[1]).toBe(2n ** 62n);
  });

  it('GLOBAL + REDUCE of anything off the allow-list stays an inert object', () => {
    const value = run([
      0x80,
      2,
      0x63,
      ...text('subprocess\ncall\n'),
      0x8c,
      2,
      ...text('ls'),
      0x85,
      0x52,
      0x2e,
    ]);
    expect(value).toEqual({
      $kind: 'object',
      module: 'subprocess',
      name: 'call',
      args: ['ls'],
      state: undefined,
    });
  });

  it('bombs become errors: deep nesting, huge lengths, unknown opcodes, truncation', () => {
    const deep = [0x80, 2, ...Array(400).fill(0x5d), ...Array(399).fill(0x61), 0x2e];
    expectFormatError(() => run(deep), 'pickle/too-deep');
    expectFormatError(
      () => run([0x80, 4, 0x8e, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0x2e]),
      /pickle\/(truncated|too-large)/,
    );
    expectFormatError(() => run([0x80, 2, 0xff]), 'pickle/bad-opcode');
    expectFormatError(() => run([0x80, 2, 0x5d, 0x28, 0x4b]), 'pickle/truncated');
    expectFormatError(() => run([0x80, 2, 0x68, 5, 0x2e]), 'pickle/bad-memo');
  });
});

describe('finished samples are let go while a dump is read', () => {
  /**
   * A dump shaped like torch.save's pickle: every dict, list and string memoized, keys written
   * once and read back by BINGET (CPython interns them), samples appended 1000 at a time.
   * `shareFirstMeta`: the last sample's metadata is the first sample's dict object again;
   * `rewriteKey`: the last sample writes the memo slot of the key 'index' again.
   */
  function memoizedSamples(count: number, shareFirstMeta: boolean, rewriteKey = false) {
    const w = new PickleWriter().op(0x80, 4);
    let memo = 0;
    const put = () => (w.memoize(), memo++);
    const keys = new Map<string, number>();
    const key = (k: string) => {
      const known = keys.get(k);
      if (known !== undefined) w.get(known);
      else {
        w.str(k);
        keys.set(k, put());
      }
    };
    let firstMeta = -1;
    w.op(0x7d);
    put();
    w.op(0x28);
    key('rollout_id');
    w.int(3);
    key('samples');
    w.op(0x5d);
    put();
    for (let i = 0; i < count; i++) {
      if (i % 1000 === 0) w.op(0x28);
      w.op(0x7d);
      put();
      w.op(0x28);
      key('index');
      if (rewriteKey && i === count - 1) w.op(0x71, keys.get('index')!);
      w.int(i);
      key('meta');
      if (shareFirstMeta && i === count - 1) w.get(firstMeta);
      else {
        w.op(0x7d);
        const m = put();
        if (i === 0) firstMeta = m;
        w.op(0x28);
        key('k');
        w.int(i);
        w.op(0x75);
      }
      key('trace');
      w.op(0x7d);
      put();
      w.op(0x28);
      key('events');
      w.op(0x5d);
      put();
      w.op(0x28);
      for (const type of ['span_start', 'span_end']) {
        w.op(0x7d);
        put();
        w.op(0x28);
        key('type');
        key(type);
        key('name');
        key('generate_and_rm');
        key('ts');
        w.float(100 + i + (type === 'span_end' ? 0.5 : 0));
        key('span_id');
        w.str(`s${i}`);
        put();
        w.op(0x75);
      }
      w.op(0x65, 0x75, 0x75); // the events, the trace dict, the sample dict
      if (i % 1000 === 999 || i === count - 1) w.op(0x65);
    }
    w.op(0x75).stop();
    return w.bytes();
  }
  const readForgetting = (bytes: Uint8Array) =>
    readPickle(new PickleCursor(bytesSource('p', bytes), 0, 0), {
      onAppend: (_list, _depth, forgetFinished) => forgetFinished(),
    }).value as { samples: unknown[] };

  it('the memo lets go of finished dicts and lists, and keeps strings read back later', () => {
    const value = readForgetting(memoizedSamples(3000, false));
    expect(value.samples).toHaveLength(3000);
    const last = value.samples[2999] as unknown as {
      index: number;
      meta: { k: number };
      trace: { events: Record<string, unknown>[] };
    };
    // interned keys and names were read back by BINGET long after the memo let samples go
    expect(Object.keys(last)).toEqual(['index', 'meta', 'trace']);
    expect(last.meta.k).toBe(2999);
    expect(last.trace.events.map((e) => [e.type, e.name, e.span_id, e.ts])).toEqual([
      ['span_start', 'generate_and_rm', 's2999', 3099],
      ['span_end', 'generate_and_rm', 's2999', 3099.5],
    ]);
  });

  it('a finished dict read back later is a coded error to a reader that let go, and the dump still reads', () => {
    const bytes = memoizedSamples(3000, true);
    expectFormatError(() => readForgetting(bytes), 'pickle/memo-forgotten');
    const plain = readPickle(new PickleCursor(bytesSource('p', bytes), 0, 0)).value as {
      samples: { meta: unknown }[];
    };
    expect(plain.samples[2999].meta).toBe(plain.samples[0].meta);
    // readSlimeDump, asked for samples as they arrive (the way the app opens), reads it again
    const torch = legacyTorch(bytes);
    let seen = 0;
    const streamed = readSlimeDump(bytesSource('shared.pt', torch), {
      onSamples: (s) => (seen = s.length),
    });
    const whole = readSlimeDump(bytesSource('shared.pt', torch));
    expect(seen).toBe(3000);
    expect(streamed.samples).toHaveLength(3000);
    expect(streamed.samples).toEqual(whole.samples);
    expect((streamed.samples[2999] as { meta: { k: number } }).meta.k).toBe(0);
  });

  it('samples used as the pickle completes them: a dump that reads one back is read again, the same rows', () => {
    const torch = legacyTorch(memoizedSamples(3000, true));
    const whole = readSlimeDump(bytesSource('shared.pt', torch));
    // each sample as the app takes it (onSample): the first read lets samples go early, meets
    // the shared dict it let go, and the dump is read again keeping everything
    const given: number[] = [];
    const streamed = readSlimeDump(bytesSource('shared.pt', torch), {
      onSamples: () => {},
      onSample: (_samples, index, sample) => {
        given.push(index);
        return sample;
      },
    });
    expect(given.length).toBeGreaterThan(1000);
    expect(streamed.samples).toEqual(whole.samples);
    // the descriptor's open gives the rows a plain read of the same samples gives
    const opened = slimeFormat.open([bytesSource('shared.pt', torch)], {});
    const built = buildRows(whole.samples).rows.map((row) => buildPdView(row));
    expect(opened.rows.map(unpackRow)).toEqual(built);
    expect(opened.rows).toHaveLength(3000);
  });

  /** readSlimeDump with a replay, as the app reads: where each sample lies, by index */
  const readReplayingKept = (source: ByteSource) => {
    const replay = new PickleReplay();
    return { replay, ...readReplaying(source, replay, false) };
  };

  it('read again keeping every value, samples still read back alone but the one sharing a dict', () => {
    const torch = bytesSource('shared.pt', legacyTorch(memoizedSamples(3000, true)));
    const whole = readSlimeDump(torch).samples;
    const { at, replay } = readReplayingKept(torch);
    // all but the first batch's first 64 (appended before the list is known)
    expect(at.size).toBe(3000 - 64);
    expect([...at].filter(([, where]) => where === null).map(([index]) => index)).toEqual([2999]);
    // MEMOIZE numbers slots from the memo's size: a sample read alone numbers them the same
    for (const index of [1000, 1500, 2998]) {
      expect(readPickleItem(torch, at.get(index)!, replay)).toEqual(whole[index]);
    }
  });

  it('a dump that writes again a memo slot samples read is read again without replay: no sample reads alone', () => {
    const torch = bytesSource('rewrite.pt', legacyTorch(memoizedSamples(3000, false, true)));
    const whole = readSlimeDump(torch).samples;
    const { dump, at } = readReplayingKept(torch);
    // all but the first batch's first 64 (appended before the list is known)
    expect(at.size).toBe(3000 - 64);
    expect([...at.values()].every((where) => where === null)).toBe(true);
    expect(dump.samples).toEqual(whole);
  });
});
