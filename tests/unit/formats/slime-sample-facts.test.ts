import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { readSlimeDump } from '../../../src-main/core/formats/slime/read-slime-dump';
import { slimeSampleFacts } from '../../../src-main/core/formats/slime/sample-facts';
import { isDict, type PyValue } from '../../../src-main/core/model/py-value';
import { textHash } from '../../../src-main/core/model/text-hash';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { sampleToDetails } from '../../../src-main/core/open/sample-details';
import { SLIME, FIXTURES, fixtureSource, readJson } from '../../support/fixtures';

/** A fixture dump's samples as its reader gives them (traces and all). */
const samplesOf = (path: string): PyValue[] => readSlimeDump(fixtureSource(path)).samples;

/** What a sample dict is made of when nothing is said: every fact empty. */
const NOTHING = {
  groupIndex: null,
  reward: null,
  responseLength: null,
  status: null,
  weightVersions: [],
  startRolloutId: null,
  promptHash: null,
};

interface CacheRow {
  row_id: number;
  group_index: number;
  status: string;
  reward: number | { score: number } | null;
}

describe('slimeSampleFacts on real dumps', () => {
  it('rollout_8: group, status and reward as slime’s viewer reads them; 8 samples resumed from 7', () => {
    const samples = samplesOf(resolve(SLIME, 'rollout_8.pt'));
    // slime's viewer gives a row per sample here (24 rows for 24 samples), row_id = index
    const cache = readJson<{ rows: CacheRow[] }>(resolve(SLIME, 'rollout_8.pt.expected.json'));
    expect(samples).toHaveLength(24);
    expect(cache.rows).toHaveLength(24);
    const facts = samples.map(slimeSampleFacts);
    expect(facts.map((f) => [f?.groupIndex, f?.status, f?.reward])).toEqual(
      cache.rows.map((row) => [
        row.group_index,
        row.status,
        // slime's convention: a dict reward's `score`
        row.reward !== null && typeof row.reward === 'object' ? row.reward.score : row.reward,
      ]),
    );
    // README: "its first 2 groups (8 samples) started in the previous rollout ...
    // metadata.start_rollout_id 7"; the others say none
    expect(facts.map((f) => f?.startRolloutId)).toEqual([
      ...new Array<number>(8).fill(7),
      ...new Array<null>(16).fill(null),
    ]);
    // a real response length on every sample: the dict's own number
    for (const [i, f] of facts.entries()) {
      const sample = samples[i] as Record<string, PyValue>;
      expect(f?.responseLength).toBe(sample.response_length);
      expect(f?.responseLength).toBeGreaterThan(0);
    }
  });

  it('run fixtures: weight_versions as strings, all "1" in rollout 0 and "2" in rollout 1, one per matched request', () => {
    // tests/fixtures/run/README.md: "one entry per matched request: rollout 0 -> all "1",
    // rollout 1 -> all "2" (32 each)"
    const run = join(FIXTURES, 'run');
    for (const [file, version] of [
      ['rollout_0.pt', '1'],
      ['rollout_1.pt', '2'],
    ]) {
      const source = bytesSource(file, readFileSync(join(run, file)));
      const facts = readSlimeDump(source).samples.map(slimeSampleFacts);
      const versions = facts.flatMap((f) => f!.weightVersions);
      expect(versions).toHaveLength(32);
      expect(new Set(versions)).toEqual(new Set([version]));
    }
  });

  it('a prompt’s hash: the text of a string prompt, the JSON of a chat; one per distinct prompt', () => {
    const small = samplesOf(resolve(SLIME, 'rollout_small.pt'));
    const smallFacts = small.map(slimeSampleFacts);
    const kinds = new Set<string>();
    small.forEach((sample, i) => {
      const prompt = (sample as Record<string, PyValue>).prompt;
      kinds.add(typeof prompt === 'string' ? 'text' : Array.isArray(prompt) ? 'chat' : 'other');
      const text = typeof prompt === 'string' ? prompt : JSON.stringify(prompt);
      expect(smallFacts[i]?.promptHash).toBe(textHash(text));
    });
    expect(kinds.has('other')).toBe(false);
    // as many hashes as distinct prompts: no two prompts share one
    const texts = new Set(
      small.map((sample) => JSON.stringify((sample as Record<string, PyValue>).prompt)),
    );
    expect(texts.size).toBeGreaterThan(1);
    expect(new Set(smallFacts.map((f) => f?.promptHash)).size).toBe(texts.size);

    // rollout_agentic: chat prompts (lists of messages), hashed as their JSON
    const agentic = samplesOf(resolve(SLIME, 'rollout_agentic.pt'));

    const chat = agentic.find((s) => isDict(s) && Array.isArray(s.prompt)) as Record<
      string,
      PyValue
    >;
    expect(chat).toBeDefined();
    expect(slimeSampleFacts(chat)?.promptHash).toBe(textHash(JSON.stringify(chat.prompt)));
  });

  it('pickled Sample objects (sample_objects.pt) read as dicts give facts too', () => {
    const facts = samplesOf(resolve(SLIME, 'sample_objects.pt')).map(slimeSampleFacts);
    // 4 x 4 (slime/README.md); status is slime's Sample.Status("completed") and the like
    expect(facts).toHaveLength(16);
    expect(facts.map((f) => f?.groupIndex)).toEqual([
      0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
    ]);
    for (const f of facts) expect(typeof f?.status).toBe('string');
  });
});

describe('slimeSampleFacts rule by rule (hand-made samples)', () => {
  it('anything but a plain dict has no facts', () => {
    const notDicts: PyValue[] = [
      null,
      7,
      'sample',
      [{ group_index: 1 }],
      new Uint8Array(2),
      { $kind: 'lazy-list', offset: 0, length: 3, elemType: 'int' } as unknown as PyValue,
    ];
    expect(notDicts.map(slimeSampleFacts)).toEqual(notDicts.map(() => null));
    expect(slimeSampleFacts({})).toEqual(NOTHING);
  });

  it('group_index: a number or a string as it is; anything else none', () => {
    const group = (value: PyValue) => slimeSampleFacts({ group_index: value })?.groupIndex;
    expect([group(3), group('g3'), group(3n), group(null), group([3])]).toEqual([
      3,
      'g3',
      null,
      null,
      null,
    ]);
  });

  it('reward: a finite number, a bool as 0/1, a dict’s score; else none', () => {
    const reward = (value: PyValue) => slimeSampleFacts({ reward: value })?.reward;
    expect([
      reward(0.75),
      reward(true),
      reward(false),
      reward({ score: 0.25, acc: true }),
      reward({ acc: true }),
      reward(NaN),
      reward(Infinity),
      reward('1'),
      reward(null),
    ]).toEqual([0.75, 1, 0, 0.25, null, null, null, null, null]);
  });

  it('response_length: a finite number, a bigint as a number; NaN, infinities and text none', () => {
    const length = (value: PyValue) => slimeSampleFacts({ response_length: value })?.responseLength;
    expect([
      length(512),
      length(0),
      length(9007199254740993n),
      length(NaN),
      length(-Infinity),
      length('512'),
      length(null),
    ]).toEqual([512, 0, 9007199254740992, null, null, null, null]);
  });

  it('status: a string, else none', () => {
    const status = (value: PyValue) => slimeSampleFacts({ status: value })?.status;
    expect([status('aborted'), status(''), status(2), status(null)]).toEqual([
      'aborted',
      '',
      null,
      null,
    ]);
  });

  it('weight_versions: each entry as a string, nulls left out; not a list: none', () => {
    const versions = (value: PyValue) =>
      slimeSampleFacts({ weight_versions: value })?.weightVersions;
    expect(versions(['3', null, 4, 5n, true])).toEqual(['3', '4', '5', 'true']);
    expect(versions([])).toEqual([]);
    expect(versions('3')).toEqual([]);
    expect(versions(null)).toEqual([]);
  });

  it('metadata.start_rollout_id: an integer or a bigint; nothing else, nowhere else', () => {
    const started = (metadata: PyValue | undefined, extra: Record<string, PyValue> = {}) =>
      slimeSampleFacts(metadata === undefined ? extra : { ...extra, metadata })?.startRolloutId;
    expect([
      started({ start_rollout_id: 7 }),
      started({ start_rollout_id: 7n }),
      started({ start_rollout_id: 7.5 }),
      started({ start_rollout_id: '7' }),
      started({ start_rollout_id: null }),
      started({}),
      started(null),
      started([{ start_rollout_id: 7 }]),
      started(undefined),
      started(undefined, { start_rollout_id: 7 }),
    ]).toEqual([7, 7, null, null, null, null, null, null, null, null]);
  });

  it('prompt: none when missing or null; a string’s text, anything else its JSON, hashed', () => {
    const hash = (prompt: PyValue | undefined) =>
      slimeSampleFacts(prompt === undefined ? {} : { prompt })?.promptHash;
    expect(hash(undefined)).toBeNull();
    expect(hash(null)).toBeNull();
    // an empty prompt is a prompt
    expect(hash('')).toBe(textHash(''));
    expect(hash('what is 2+2')).toBe(textHash('what is 2+2'));
    expect(hash('what is 2+2')).toMatch(/^[0-9a-f]{16}$/);
    // a chat as JSON, a bigint as its digits
    expect(hash([{ role: 'user', content: 'hi', id: 12n }])).toBe(
      textHash('[{"role":"user","content":"hi","id":"12"}]'),
    );
    // a prompt JSON cannot write (it refers to itself): its String()
    const circular: Record<string, unknown> = { role: 'user' };
    circular.self = circular;
    expect(hash(circular as unknown as PyValue)).toBe(textHash('[object Object]'));
  });
});

describe('slime’s TraceSamples (what an open dump keeps)', () => {
  it('facts for every sample, traced or not; read gives the sample without its trace', () => {
    // no_trace.pt: 2 x 4 samples, none with a trace (slime/README.md)
    const path = resolve(SLIME, 'no_trace.pt');
    const source = fixtureSource(path);
    const opened = openTraceFile([source]);
    const samples = samplesOf(path);
    expect(opened.rows).toHaveLength(0);
    expect(opened.samples.count).toBe(8);
    expect(opened.samples.facts).toEqual(samples.map(slimeSampleFacts));
    expect(opened.samples.facts.every((f) => f !== null)).toBe(true);
    expect(opened.samples.read(2, (use) => use(source))).toEqual(samples[2]);
    expect(opened.samples.read(8, (use) => use(source))).toBeUndefined();
  });

  it('a traced dump: the kept sample is the read one minus its trace', () => {
    const path = resolve(SLIME, 'rollout_small.pt');
    const source = fixtureSource(path);
    const opened = openTraceFile([source]);
    const sample = samplesOf(path)[5] as Record<string, PyValue>;
    expect('trace' in sample).toBe(true);
    const { trace: _trace, ...withoutTrace } = sample;
    // as the details view shows them: every field but the trace, heavy lists as their lengths
    const read = opened.samples.read(5, (use) => use(source))!;
    expect(Object.keys(read)).toEqual(Object.keys(withoutTrace));
    expect(sampleToDetails(read)).toEqual(sampleToDetails(withoutTrace));
    expect(opened.samples.count).toBe(16);
    expect(opened.samples.facts).toHaveLength(16);
    expect(opened.samples.read(-1, (use) => use(source))).toBeUndefined();
    expect(opened.samples.read(16, (use) => use(source))).toBeUndefined();
  });

  it('a format without samples keeps none', () => {
    const source = fixtureSource(resolve(FIXTURES, 'run/sglang_otel_trace.json'));
    const opened = openTraceFile([source]);
    expect(opened.summary.format).toBe('otlp');
    expect(opened.samples.count).toBe(0);
    expect(opened.samples.facts).toEqual([]);
    expect(opened.samples.read(0, (use) => use(source))).toBeUndefined();
  });
});
