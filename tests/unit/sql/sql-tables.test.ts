import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../support/fixtures';
import { ingest } from '../../../src-main/ingest/open-sources';
import { buildRowsJson } from '../../../src-main/cli/rows-output';
import { buildSummaryJson } from '../../../src-main/cli/summary-output';
import { joinRun } from '../../../src-main/cli/run-output';
import { buildQueryTables } from '../../../src-main/core/sql/build-query-tables';
import { SqlEngine } from '../../../src-main/sql/sql-engine';
import type { OpenedTrace } from '../../../src-main/core/open/open-trace-file';
import type { RowItem } from '../../../src-main/core/model/row';
import { unpackRow } from '../../../src-main/core/rows/packed-items';

// Each table against what the commands print for the same fixture: `rows` (buildRowsJson),
// `summary --json` (buildSummaryJson), `perf` (the perf view's keys), and a run's joins.

const open = (path: string): OpenedTrace => ingest({ sources: [{ kind: 'path', path }] });

const FILES = [
  'slime/rollout_7.pt',
  'slime/rollout_agentic.pt',
  'slime/edge_cases.pt',
  'otlp/roll_traces.jsonl',
  'otlp/sglang_otel_trace.json',
  'chrome/torch_profiler_train_cpu.json',
  'run/comm_timeline/slime-trainer-0.jsonl',
];

const engines: SqlEngine[] = [];
afterAll(() => engines.forEach((e) => e.close()));

async function engineOf(paths: string[]) {
  const traces = paths.map((path) => ({ name: path, path, trace: open(path) }));
  const engine = await SqlEngine.create(buildQueryTables(traces));
  engines.push(engine);
  const rows = async (sql: string) => (await engine.query(sql, 1e7)).rows;
  return { traces, engine, rows };
}

describe.each(FILES)('the SQL tables of %s', (name) => {
  const path = resolve(FIXTURES, name);

  it('files, samples, spans, events, pd_phases and perf equal summary --json, rows and perf', async () => {
    const { traces, rows } = await engineOf([path]);
    const { trace } = traces[0];
    const summary = buildSummaryJson(trace);
    const cache = buildRowsJson([path]);

    const [file] = await rows(
      'SELECT name, format, bytes, rows, samples, spans, events, start_epoch, start_sec FROM files',
    );
    expect(file).toEqual([
      path,
      summary.format,
      summary.bytes,
      summary.rows,
      summary.samples,
      summary.spans,
      summary.events,
      summary.globalStartSec,
      0,
    ]);

    // every span and event of the file's rows (what `rows` prints, but for a slime dump, which
    // `rows` prints as slime's viewer caches it: without our PD children), in order
    const ownRows = trace.rows.map(unpackRow);
    const items = ownRows.flatMap((row) =>
      row.items.map((item: RowItem, index) => ({ row: row.row_id, index, item })),
    );
    const spanItems = items.filter(({ item }) => item.type === 'span');
    const pointItems = items.filter(({ item }) => item.type !== 'span');
    expect(spanItems.length).toBe(summary.spans);
    expect(pointItems.length).toBe(summary.events);
    const spans = await rows(
      'SELECT row, item, name, start_epoch, end_epoch, depth, attempt, ongoing FROM spans ORDER BY row, item',
    );
    expect(spans).toEqual(
      spanItems.map(({ row, index, item }) =>
        item.type === 'span'
          ? [
              row,
              index,
              item.name,
              item.start_ts,
              item.display_end_ts,
              item.depth,
              item.attempt,
              item.state === 'open_span',
            ]
          : [],
      ),
    );
    const events = await rows(
      'SELECT row, item, name, time_epoch, orphan FROM events ORDER BY row, item',
    );
    expect(events).toEqual(
      pointItems.map(({ row, index, item }) =>
        item.type === 'span' ? [] : [row, index, item.name, item.ts, item.type === 'orphan_end'],
      ),
    );

    // one samples row per sample; a traced one has its row's times and fields
    const samples = await rows(
      'SELECT row, status, reward, start_epoch, end_epoch, duration_sec, traced FROM samples ORDER BY row',
    );
    expect(samples.length).toBe(summary.samples * (trace.summary.capabilities.samples ? 1 : 0));
    const byId = new Map(cache.rows.map((r) => [r.row_id, r]));
    for (const [rowId, status, reward, start, end, duration, traced] of samples) {
      const row = byId.get(rowId as number);
      expect(traced).toBe(row !== undefined);
      if (row === undefined) continue;
      expect([status, start, end, duration]).toEqual([
        row.status,
        row.start,
        row.end,
        row.duration,
      ]);
      if (typeof row.reward === 'number') expect(reward).toBe(row.reward);
    }
    const [[untraced]] = await rows('SELECT count(*) FILTER (NOT traced) FROM samples');
    expect(untraced).toBe(trace.summary.capabilities.samples ? summary.untracedSamples : 0);

    // PD phases: each [P]/[D] span's phases, in order (ours: the app's own rows)
    const ours = trace.rows.flatMap((packed) => {
      const row = unpackRow(packed);
      return row.items.flatMap((item, index) =>
        item.type === 'span' && item.pd
          ? item.pd.phases.map((p) => [row.row_id, index, item.pd!.role, p.phase, p.durationSec])
          : [],
      );
    });
    expect(
      await rows(
        'SELECT row, item, role, phase, duration_sec FROM pd_phases ORDER BY row, item, phase_index',
      ),
    ).toEqual(ours);

    // perf: the keys and values `perf` prints
    const perf = await rows('SELECT key, value FROM perf ORDER BY key');
    expect(Object.fromEntries(perf)).toEqual(
      Object.fromEntries(Object.entries(trace.perf.perf).filter(([, v]) => Number.isFinite(v))),
    );
  });
});

describe('the SQL tables of a run (tests/fixtures/run)', () => {
  const dir = resolve(FIXTURES, 'run');
  const paths = [
    'rollout_0.pt',
    'rollout_1.pt',
    'sglang_otel_trace.json',
    'comm_timeline/slime-trainer-0.jsonl',
    'comm_timeline/slime-trainer-1.jsonl',
  ].map((p) => resolve(dir, p));

  it('server_requests, their samples, stale samples and trainer records equal the joins', async () => {
    const { traces, rows } = await engineOf(paths);
    const run = joinRun(
      traces.map(({ path, trace }) => ({ path, trace })),
      [],
    );
    const { counts, trainer } = run.joins;
    const [[requests, joined, unjoined]] = await rows(
      'SELECT count(*), count(sample_row), count(*) FILTER (sample_row IS NULL) FROM server_requests',
    );
    expect(requests).toBe(counts.serverRequests);
    expect(joined).toBe(counts.serverRequests - counts.serverRequestsWithoutSample);
    expect(unjoined).toBe(counts.serverRequestsWithoutSample);
    // README: the one request no sample asked for
    expect(await rows('SELECT rid, error FROM server_requests WHERE sample_row IS NULL')).toEqual([
      ['03b17c26e4095a197023885edbb54011', true],
    ]);
    // each joined request names the very generate span that carries its rid
    const mismatched = await rows(`
      SELECT count(*) FROM server_requests r JOIN spans s
        ON s.file = r.sample_file AND s.row = r.sample_row AND s.item = r.sample_item
      WHERE s.name <> 'sglang_generate' OR (s.attributes->>'sglang_request_id') <> r.rid`);
    expect(mismatched).toEqual([[0]]);
    const [[stale]] = await rows('SELECT count(*) FILTER (stale) FROM samples');
    expect(stale).toBe(counts.staleSamples);
    const [[samplesAll]] = await rows('SELECT count(*) FROM samples');
    expect(samplesAll).toBe(counts.samples);

    const [[records]] = await rows('SELECT count(*) FROM trainer');
    expect(records).toBe(trainer.records);
    const byOperation = await rows('SELECT operation, count(*) FROM trainer GROUP BY 1');
    expect(Object.fromEntries(byOperation)).toEqual(trainer.byOperation);
    // one clock: the earliest file starts at 0
    const [[origin, first]] = await rows('SELECT min(start_epoch), min(start_sec) FROM files');
    expect(first).toBe(0);
    expect(origin).toBe(Math.min(...traces.map((t) => t.trace.summary.globalStartSec!)));
  });
});
