import { describe, expect, it } from 'vitest';
import { otlpFormat } from '../../../src-main/core/formats/otlp/descriptor';
import { slimeFormat } from '../../../src-main/core/formats/slime/descriptor';
import { chromeTraceFormat } from '../../../src-main/core/formats/chrome/descriptor';
import { SORT_KEYS } from '../../../src-main/core/api/sort-keys';
import { sortOptions } from '../../../src-renderer/toolbar/sort-options';
import { detailsHint } from '../../../src-renderer/details/details-hint';
import { perfWords } from '../../../src-renderer/perf/perf-words';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
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
