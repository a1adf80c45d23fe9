import { describe, expect, it } from 'vitest';
import { readSlimeDump } from '../../src-main/core/formats/slime/read-slime-dump';
import { buildPerfSummary } from '../../src-main/core/rows/perf-summary';
import type { PyValue } from '../../src-main/core/model/py-value';
import { fixtureSource, readJson, slimeFixturesWithExpected } from '../support/fixtures';

/** every fixture the manifest gives slime's own perf summary for (tests/fixtures/manifest.json) */
const fixtures = slimeFixturesWithExpected().filter((f) => f.perfPath !== null);

const STATS = ['mean', 'median', 'max', 'min'];
/**
 * (ours) the keys we add beyond slime's summary (TRACE_MODEL 5): request counts always, and
 * under slime's own PD names, values from current dumps' sglang_pd_* children (and from the
 * older unprefixed prefill keys) in rollouts where slime's summary has no such key.
 */
const OUR_KEYS = new Set([
  'perf/request/count',
  'perf/request/profiled_count',
  ...[
    'prefill/bootstrap_queue_duration',
    'prefill/bootstrap_duration',
    'prefill/alloc_wait_duration',
    'prefill/forward_duration',
    'prefill/transfer_queue_duration',
    'prefill/transfer_speed_gb_s',
    'prefill/transfer_total_mb',
    'prefill/retry_count',
    'decode/prealloc_duration',
    'decode/bootstrap_duration',
    'decode/alloc_wait_duration',
    'decode/transfer_duration',
    'decode/forward_duration',
  ].flatMap((metric) => STATS.map((stat) => `perf/${metric}/${stat}`)),
]);

const perfOf = (path: string) => buildPerfSummary(readSlimeDump(fixtureSource(path)).samples);

describe('perf summary equals slime’s for every fixture', () => {
  // 11 fixtures carry slime's perf summary (tests/fixtures/manifest.json)
  it('finds the fixtures', () => expect(fixtures.length).toBe(11));

  for (const fixture of fixtures) {
    it(fixture.name, () => {
      const expected = readJson<Record<string, number>>(fixture.perfPath!);
      const actual = perfOf(fixture.path);
      for (const [key, value] of Object.entries(expected)) {
        expect(actual[key], key).toBeDefined();
        const scale = Math.max(Math.abs(value), 1e-300);
        expect(Math.abs(actual[key] - value) / scale, key).toBeLessThan(1e-9);
      }
      // everything beyond slime's keys is one of ours
      for (const key of Object.keys(actual).filter((k) => !(k in expected))) {
        expect(OUR_KEYS.has(key), `${key} is neither slime's nor one of ours`).toBe(true);
      }
    });
  }

  it('ours, on a current dump: request counts, and PD keys from the sglang_pd_* children', () => {
    const fixture = fixtures.find((f) => f.name === 'rollout_small.pt')!;
    const expected = readJson<Record<string, number>>(fixture.perfPath!);
    const samples = readSlimeDump(fixtureSource(fixture.path)).samples;
    const actual = buildPerfSummary(samples);
    const ours = Object.keys(actual).filter((k) => !(k in expected));
    expect(ours.filter((k) => k.startsWith('perf/request/')).sort()).toEqual([
      'perf/request/count',
      'perf/request/profiled_count',
    ]);
    // slime reads no PD keys from child spans; we read every phase
    expect(Object.keys(expected).some((k) => /^perf\/(prefill|decode)\/.*duration/.test(k))).toBe(
      false,
    );
    expect(ours).toContain('perf/prefill/forward_duration/mean');
    expect(ours).toContain('perf/decode/forward_duration/mean');
    expect(ours).toContain('perf/prefill/transfer_speed_gb_s/mean');

    // the same figures straight from the dump's events
    const events = samples.flatMap((s) => {
      const trace = (s as Record<string, PyValue>).trace as Record<string, PyValue> | undefined;
      return ((trace?.events as Record<string, PyValue>[] | undefined) ?? []).filter(
        (e) => e && typeof e === 'object',
      );
    });
    const ends = (name: string) => events.filter((e) => e.type === 'span_end' && e.name === name);
    const attr = (e: Record<string, PyValue>, key: string) =>
      (e.attrs as Record<string, PyValue>)[key] as number;
    const forward = ends('sglang_pd_prefill_forward').map((e) =>
      attr(e, 'pd_prefill_forward_duration'),
    );
    expect(forward.length).toBeGreaterThan(0);
    expect(actual['perf/prefill/forward_duration/max']).toBe(Math.max(...forward));
    expect(actual['perf/prefill/forward_duration/min']).toBe(Math.min(...forward));
    expect(actual['perf/request/count']).toBe(ends('sglang_generate').length);
    // every closed request of this dump went through PD
    const withPd = new Set(
      events.filter((e) => e.name === 'sglang_pd_prefill').map((e) => String(e.parent_span_id)),
    );
    const profiled = ends('sglang_generate').filter((e) => withPd.has(String(e.span_id))).length;
    expect(profiled).toBeGreaterThan(0);
    expect(actual['perf/request/profiled_count']).toBe(profiled);
  });

  it('ours, on a legacy dump: only the request counts are added', () => {
    const fixture = fixtures.find((f) => f.name === 'rollout_pd_legacy.pt')!;
    const expected = readJson<Record<string, number>>(fixture.perfPath!);
    const samples = readSlimeDump(fixtureSource(fixture.path)).samples;
    const actual = buildPerfSummary(samples);
    expect(Object.keys(actual).filter((k) => !(k in expected))).toEqual([
      'perf/request/count',
      'perf/request/profiled_count',
    ]);
    // profiled: the request's end attrs carry a PD timing (flat keys)
    const requests = samples.flatMap((s) => {
      const trace = (s as Record<string, PyValue>).trace as Record<string, PyValue> | undefined;
      return ((trace?.events as Record<string, PyValue>[] | undefined) ?? []).filter(
        (e) => e.type === 'span_end' && e.name === 'sglang_generate',
      );
    });
    const profiled = requests.filter((e) =>
      Object.keys((e.attrs ?? {}) as object).some((k) => k.startsWith('pd_')),
    ).length;
    expect(profiled).toBeGreaterThan(0);
    expect(actual['perf/request/count']).toBe(requests.length);
    expect(actual['perf/request/profiled_count']).toBe(profiled);
  });
});
