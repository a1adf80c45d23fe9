import { gunzipSync } from 'node:zlib';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildPerfettoTrace,
  perfettoJsonChunks,
  writePerfettoJson,
  type TraceEvent,
} from '../../../src-main/core/export/perfetto-export';
import { buildRowsCsv } from '../../../src-main/core/export/csv-export';
import { readSlimeDump } from '../../../src-main/core/formats/slime/read-slime-dump';
import { buildRows } from '../../../src-main/core/rows/build-rows';
import { buildPdView } from '../../../src-main/core/rows/pd-lanes';
import type { Row } from '../../../src-main/core/model/row';
import { SLIME, fixtureSource, readJson, slimeFixturesWithExpected } from '../../support/fixtures';

/** The Trace Event Format's rules, as Perfetto and chrome://tracing apply them. */
function validateTef(events: TraceEvent[]): string[] {
  const problems: string[] = [];
  const named = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => `${e.pid}/${e.tid}`),
  );
  const lastTs = new Map<string, number>();
  const open = new Map<string, TraceEvent>();
  const stacks = new Map<string, number[]>();
  for (const e of events) {
    if (!e.name) problems.push('event without a name');
    if (!Number.isInteger(e.pid) || !Number.isInteger(e.tid) || e.pid > 1e6 || e.tid > 1e6)
      problems.push(`bad pid/tid ${e.pid}/${e.tid}`);
    if (e.ph === 'M') continue;
    const thread = `${e.pid}/${e.tid}`;
    if (!named.has(thread)) problems.push(`thread ${thread} has no name`);
    if ((lastTs.get(thread) ?? -Infinity) > e.ts!)
      problems.push(`timestamps not sorted on ${thread}`);
    lastTs.set(thread, e.ts!);
    if (e.ph === 'X') {
      if (!(e.dur! >= 0)) problems.push(`negative duration ${e.name}`);
      const stack = stacks.get(thread) ?? [];
      while (stack.length > 0 && stack[stack.length - 1] <= e.ts! + 1e-9) stack.pop();
      if (stack.length > 0 && e.ts! + e.dur! > stack[stack.length - 1] + 1e-6)
        problems.push(`X ${e.name} overlaps its parent on ${thread}`);
      stack.push(e.ts! + e.dur!);
      stacks.set(thread, stack);
    }
    if (e.ph === 'b') open.set(`${e.cat}/${e.id}`, e);
    if (e.ph === 'e') {
      const begin = open.get(`${e.cat}/${e.id}`);
      if (!begin || begin.name !== e.name) problems.push(`async end ${e.name} without its begin`);
      open.delete(`${e.cat}/${e.id}`);
    }
  }
  for (const begin of open.values()) problems.push(`async begin ${begin.name} never ends`);
  return problems;
}

describe('Perfetto export', () => {
  for (const fixture of slimeFixturesWithExpected().filter(
    (f) => !f.name.startsWith('empty') && !f.name.startsWith('no_trace'),
  )) {
    it(`${fixture.name}: follows the Trace Event Format and keeps every item`, () => {
      const cache = readJson<{ rows: Row[]; global_start: number }>(fixture.expectedPath);
      const trace = buildPerfettoTrace([
        { name: fixture.name, rows: packRows(cache.rows), globalStart: cache.global_start },
      ]);
      expect(validateTef(trace.traceEvents)).toEqual([]);
      const spans = cache.rows.flatMap((r) => r.items).filter((i) => i.type === 'span').length;
      const points = cache.rows.flatMap((r) => r.items).filter((i) => i.type !== 'span').length;
      const x = trace.traceEvents.filter((e) => e.ph === 'X').length;
      const b = trace.traceEvents.filter((e) => e.ph === 'b').length;
      expect(x + b).toBe(spans);
      expect(trace.traceEvents.filter((e) => e.ph === 'i').length).toBe(points);
      const names = trace.traceEvents
        .filter((e) => e.ph === 'M' && e.name === 'thread_name')
        .map((e) => e.args!.name);
      expect(names).toEqual(
        cache.rows.map((r) => `#${String(r.sample_index)} ${r.source ?? ''}`.trim()),
      );
      // a known span: microseconds from the rollout start
      const item = cache.rows[0].items.find((i) => i.type === 'span')!;
      const event = trace.traceEvents.find(
        (e) => e.ph !== 'M' && e.tid === 1 && e.name === item.name,
      )!;
      expect(event.ts).toBeCloseTo(
        ((item as { start_ts: number }).start_ts - cache.global_start) * 1e6,
        0,
      );
    });
  }

  it('PD phases become nested slices inside their request, and gzip round-trips', () => {
    const rows = buildRows(
      readSlimeDump(fixtureSource(resolve(SLIME, 'rollout_small.pt'))).samples,
    ).rows.map((r) => buildPdView(r));
    const trace = buildPerfettoTrace([
      {
        name: 'rollout_small.pt',
        rows: packRows(rows),
        globalStart: Math.min(...rows.map((r) => r.start)),
      },
    ]);
    expect(validateTef(trace.traceEvents)).toEqual([]);
    expect(trace.traceEvents.some((e) => e.name === 'decode forward' && e.ph === 'X')).toBe(true);
    const back = JSON.parse(
      gunzipSync(writePerfettoJson(trace, true)).toString('utf8'),
    ) as typeof trace;
    expect(back.traceEvents.length).toBe(trace.traceEvents.length);
  });
});

/** RFC 4180 reader for the test. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (c !== '\r') cell += c;
  }
  return rows;
}

describe('CSV export', () => {
  it('a header, then one line per row with its fields; awkward labels round-trip', () => {
    const cache = readJson<{ rows: Row[] }>(resolve(SLIME, 'edge_cases.pt.expected.json'));
    const rows = cache.rows.map((r, i) => (i === 0 ? { ...r, label: 'a, "quoted"\nlabel' } : r));
    const parsed = parseCsv(buildRowsCsv(rows));
    expect(parsed[0].slice(0, 5)).toEqual([
      'row_id',
      'sample_index',
      'group_index',
      'source',
      'status',
    ]);
    expect(parsed).toHaveLength(rows.length + 1);
    expect(parsed[1][5]).toBe('a, "quoted"\nlabel');
    parsed.slice(1).forEach((cells, i) => {
      expect(Number(cells[0])).toBe(rows[i].row_id);
      expect(cells[4]).toBe(rows[i].status ?? '');
      expect(Number(cells[11])).toBe(rows[i].duration);
    });
  });

  it('a cell that a spreadsheet would run as a formula is shown as text', () => {
    const cache = readJson<{ rows: Row[] }>(resolve(SLIME, 'rollout_nopd.pt.expected.json'));
    const csv = buildRowsCsv([{ ...cache.rows[0], label: '=HYPERLINK("x")' }]);
    expect(parseCsv(csv)[1][5]).toBe(`'=HYPERLINK("x")`);
  });
});

describe('Perfetto export streamed in chunks (issue 18)', () => {
  it('gives exactly the bytes of the whole trace stringified at once, in several chunks', () => {
    for (const fixture of slimeFixturesWithExpected()) {
      const cache = readJson<{ rows: Row[]; global_start: number }>(fixture.expectedPath);
      const files = [
        { name: fixture.name, rows: packRows(cache.rows), globalStart: cache.global_start },
      ];
      const chunks = [...perfettoJsonChunks(files, 4096)];
      expect(chunks.join(''), fixture.name).toBe(JSON.stringify(buildPerfettoTrace(files)));
    }
  });

  it('yields a chunk as soon as a few KiB of events are made', () => {
    // rollout_agentic: 16 rows of tool calls and PD children, ~100 KiB of events
    const cache = readJson<{ rows: Row[]; global_start: number }>(
      resolve(SLIME, 'rollout_agentic.pt.expected.json'),
    );
    const files = [
      { name: 'rollout_agentic.pt', rows: packRows(cache.rows), globalStart: cache.global_start },
    ];
    const chunks = [...perfettoJsonChunks(files, 4096)];
    // a chunk leaves once it holds 4 KiB, at the end of a row: many chunks, none held back
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(4096);
  });
});
