import { describe, expect, it } from 'vitest';
import { otlpFormat } from '../../../src-main/core/formats/otlp/descriptor';
import { slimeFormat } from '../../../src-main/core/formats/slime/descriptor';
import { chromeTraceFormat } from '../../../src-main/core/formats/chrome/descriptor';
import { SORT_KEYS } from '../../../src-main/core/api/sort-keys';
import { sortOptions } from '../../../src-renderer/toolbar/sort-options';
import { detailsHint } from '../../../src-renderer/details/details-hint';
import { perfWords } from '../../../src-renderer/perf/perf-words';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { formatSummaryText } from '../../../src-main/cli/summary-output';
import { OTLP, SLIME, fixtureSource } from '../../support/fixtures';
import { resolve } from 'node:path';

// Menus, placeholders and perf labels offer only what a file has, asked of the registered
// descriptors' own capabilities (issue 48: an OpenTelemetry file was offered reward sorts).

describe('the sort menu', () => {
  it('offers a slime dump every order, in the contract’s order', () => {
    expect(sortOptions(slimeFormat.capabilities)).toEqual(
      SORT_KEYS.map(({ key, label }) => [key, label]),
    );
  });

  it('offers an OpenTelemetry file no reward, group or sample orders, and no word of samples', () => {
    const options = sortOptions(otlpFormat.capabilities);
    const keys = options.map(([key]) => key);
    for (const key of ['reward', 'group', 'group_duration', 'sample_index'])
      expect(keys).not.toContain(key);
    expect(keys).toEqual(['row_id', 'start', 'duration', 'lane_count', 'ongoing']);
    expect(options.map(([, label]) => label).join(' ')).not.toMatch(/sample/);
  });
});

describe('the empty details panel', () => {
  it('promises a slime dump’s sample its timing, prompt, response and reward', () => {
    expect(detailsHint(slimeFormat.capabilities)).toContain(
      'PD phases, and the sample’s timing, prompt, response and reward',
    );
  });

  it('promises an OpenTelemetry file no prompt, response, reward or PD phases', () => {
    const hint = detailsHint(otlpFormat.capabilities);
    expect(hint).not.toMatch(/prompt|response|reward|PD/);
    expect(hint).toContain('times, attributes, events and links');
  });
  it('in a report made without content, promises no prompt or response and says so', () => {
    const hint = detailsHint(slimeFormat.capabilities, true);
    expect(hint).toContain('the sample’s timing and reward.');
    const [promised, said] = hint.split(' Prompts,');
    expect(promised).not.toMatch(/prompt|response/i);
    expect(said).toBe(' responses, labels and tool arguments were left out of this report.');
  });
});

describe('perf labels', () => {
  it('a slime dump: samples, requests, rollout wall time', () => {
    expect(perfWords(slimeFormat.capabilities, 64)).toMatchObject({
      rows: 'samples with a trace',
      wall: 'rollout wall time',
      requests: true,
    });
  });

  it('a trace file without requests: rows, no requests card, wall time', () => {
    for (const format of [otlpFormat, chromeTraceFormat]) {
      const words = perfWords(format.capabilities, 0);
      expect(words).toMatchObject({ rows: 'rows', wall: 'wall time', requests: false });
      const texts = Object.values(words).filter((w) => typeof w === 'string');
      expect(texts.join(' ')).not.toMatch(/sample|rollout/i);
    }
  });

  it("the straggler sentence: a dump's is core's own; a trace's speaks of rows", () => {
    const dump = openTraceFile([fixtureSource(resolve(SLIME, 'rollout_8.pt'))]).perf.rollout;
    expect(perfWords(slimeFormat.capabilities, 64).stragglers(dump.stragglers!)).toBe(
      dump.stragglers!.sentence,
    );
    const trace = openTraceFile([fixtureSource(resolve(OTLP, 'sglang_otel_trace.json'))]);
    const figures = trace.perf.rollout.stragglers!;
    const words = perfWords(trace.summary.capabilities, 0);
    const sentence = words.stragglers(figures);
    expect(figures.sentence).toMatch(/samples? .* kept the rollout open/);
    expect(sentence).toBe(
      figures.sentence
        .replace(/samples?/, figures.sampleCount === 1 ? 'row' : 'rows')
        .replace('rollout', 'trace'),
    );
    expect(`${sentence} ${words.keptOpen}`).not.toMatch(/sample|rollout/i);
  });
});

describe("summary's words", () => {
  /** Three processes of a Chrome trace whose last ends 3 s after the others: a tail of one row. */
  const chromeTrace = () => {
    const events = [0, 1, 2].flatMap((pid) => [
      { ph: 'M', name: 'process_name', pid, tid: 0, args: { name: `worker ${pid}` } },
      { ph: 'X', name: 'step', pid, tid: 1, ts: 0, dur: pid === 2 ? 5e6 : 2e6 },
    ]);
    return new TextEncoder().encode(JSON.stringify({ traceEvents: events }));
  };

  it('a Chrome trace: its tail in rows of the trace, as the perf view words it, no sample or rollout', () => {
    const trace = openTraceFile([bytesSource('three.json', chromeTrace())]);
    expect(trace.summary.format).toBe('chrome-trace');
    const figures = trace.perf.rollout.stragglers!;
    const text = formatSummaryText(trace);
    // the perf view's sentence for this file, word for word
    const perf = perfWords(trace.summary.capabilities, 0).stragglers(figures);
    expect(text.split('\n')).toContain(`tail      ${perf}`);
    expect(perf).toMatch(/^the last 1 row \(33\.3%\) kept the trace open for 60\.0% of its/);
    expect(text).not.toMatch(/sample|rollout/i);
  });

  it("a slime dump's tail is core's own sentence, in samples of the rollout", () => {
    const trace = openTraceFile([fixtureSource(resolve(SLIME, 'rollout_8.pt'))]);
    const lines = formatSummaryText(trace).split('\n');
    expect(lines).toContain(`tail      ${trace.perf.rollout.stragglers!.sentence}`);
    expect(trace.perf.rollout.stragglers!.sentence).toMatch(/samples? .* kept the rollout open/);
  });
});
