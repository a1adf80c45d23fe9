import { mkdtempSync, writeFileSync } from 'node:fs';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { defineFormat } from '../../../src-main/core/formats/format-descriptor';
import { FORMATS } from '../../../src-main/core/formats/registry';
import type { Row, SpanItem } from '../../../src-main/core/model/row';
import { NO_SAMPLES } from '../../../src-main/core/model/sample-facts';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { compareItems, rowCounts } from '../../../src-main/core/rows/build-rows';
import { TraceService } from '../../../src-main/api/trace-service';
import { runCommand } from '../../../src-main/cli/run-command';
import { ingestInThread } from '../../support/in-thread-ingest';
import { sharedBytes } from '../../../src-main/ingest/ingest-protocol';

// A third format that exists only in this file: registered here, opened through the open path,
// the ingest worker's session, the CLI's summary and the TraceApi service. No other file of the
// repository knows it (issue 15: "adding a format = its folder + one registry line + tests").

/** `{"tinytrace":1,"spans":[{"row","name","start","end"}...]}`: one row per `row` value. */
const tinyTrace = defineFormat({
  id: 'tinytrace',
  labels: {
    name: 'tiny trace',
    short: 'TT',
    noun: 'tiny trace',
    expected: 'a tiny trace',
    samples: 'requests',
    source: 'source',
    search: 'span names',
  },
  sniff: (head) => new TextDecoder().decode(head.subarray(0, 16)).startsWith('{"tinytrace":1'),
  open(sources, options) {
    const source = sources[0];
    let doc: { spans: { row: string; name: string; start: number; end: number }[] };
    try {
      doc = JSON.parse(new TextDecoder().decode(source.read(0, source.size)));
    } catch {
      throw new FormatError('tinytrace/not-json', 'not JSON', 0);
    }
    options.onStepEnd?.('read');
    const byRow = new Map<string, SpanItem[]>();
    for (const span of doc.spans) {
      const items = byRow.get(span.row) ?? [];
      items.push({
        type: 'span',
        state: 'closed_span',
        name: span.name,
        start_ts: span.start,
        end_ts: span.end,
        display_end_ts: span.end,
        attempt: null,
        span_id: null,
        parent_span_id: null,
        parent_span_name: null,
        lane: 0,
        depth: 0,
        attrs: { start_attrs: {}, end_attrs: {} },
      });
      byRow.set(span.row, items);
    }
    const rows: Row[] = [...byRow].map(([key, items], rowId) => ({
      row_id: rowId,
      sample_index: rowId,
      group_index: null,
      source: 'tiny',
      status: null,
      label: null,
      reward: null,
      trace_id: key,
      attempt: null,
      ...rowCounts(items),
      items: items.sort(compareItems),
    }));
    return {
      rows: packRows(rows),
      samples: NO_SAMPLES,
      perf: {},
      notices: [],
      sampleCount: rows.length,
      untracedSamples: 0,
    };
  },
});

const WITH_TINY = [...FORMATS, tinyTrace];

/** "not A, B nor C": what a file no format reads was expected to be, from the labels given */
function notAny(formats: readonly { labels: { expected: string } }[]): string {
  const names = formats.map((f) => f.labels.expected);
  return `not ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} nor ${names.at(-1)}`}`;
}
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// two requests: a (queue 100-100.25, decode 100.25-101) and b (queue 100.5-102)
const TINY_TEXT =
  '{"tinytrace":1,"spans":[' +
  '{"row":"a","name":"queue","start":100,"end":100.25},' +
  '{"row":"a","name":"decode","start":100.25,"end":101},' +
  '{"row":"b","name":"queue","start":100.5,"end":102}]}';
const TINY_BYTES = new TextEncoder().encode(TINY_TEXT);

function tinyFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'te-tiny-')), 'run.tiny.json');
  writeFileSync(path, TINY_TEXT);
  return path;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a format defined only in a test', () => {
  it('is unknown to the app, and opens once registered', () => {
    const source = bytesSource('run.tiny.json', TINY_BYTES);
    // the registry's formats, named by their labels, in sniffing order
    expect(FORMATS.length).toBeGreaterThan(1);
    expect(() => openTraceFile([source])).toThrow(notAny(FORMATS));
    const opened = openTraceFile([source], { formats: WITH_TINY });
    expect(opened.format).toBe(tinyTrace);
    // counts by hand from TINY_TEXT: rows a and b, three spans, 100 s to 102 s
    expect(opened.summary).toMatchObject({
      format: 'tinytrace',
      formatLabels: { name: 'tiny trace', short: 'TT' },
      capabilities: { samples: false, facets: { rewards: false } },
      samples: 2,
      rows: 2,
      spans: 3,
      events: 0,
      globalStartSec: 100,
      globalEndSec: 102,
      spanNames: [
        { name: 'queue', count: 2 },
        { name: 'decode', count: 1 },
      ],
    });
    expect(opened.rows.map((r) => [r.trace_id, r.duration, r.item_count])).toEqual([
      ['a', 1, 2],
      ['b', 1.5, 1],
    ]);
    // the error list names every registered format
    expect(() =>
      openTraceFile([bytesSource('x.bin', new Uint8Array([1, 2]))], { formats: WITH_TINY }),
    ).toThrow(notAny(WITH_TINY));
    expect(notAny(WITH_TINY)).toMatch(/, [^,]+ nor a tiny trace$/);
  });

  it('opens through the ingest worker’s session and answers calls there', async () => {
    const job = ingestInThread(WITH_TINY)(
      { sources: [{ kind: 'bytes', name: 'run.tiny.json', bytes: sharedBytes(TINY_BYTES) }] },
      () => undefined,
    );
    const file = await job.result;
    expect(file.summary).toMatchObject({ format: 'tinytrace', rows: 2, spans: 3 });
    const order = await file.call('queryRows', { sort: 'duration', descending: true });
    expect(Array.from(order.rowIds)).toEqual([1, 0]);
    const [b] = await file.call('getRows', [1]);
    expect(b.items.map((item) => [item.name, item.startSec, item.endSec])).toEqual([
      ['queue', 0.5, 2],
    ]);
    // the worker answers the perf view's digest: per span name its count and stats
    expect(
      (await file.call('getPerf')).durations.map((d) => [d.name, d.stats?.count, d.stats?.total]),
    ).toEqual([
      ['queue', 2, 1.75],
      ['decode', 1, 0.75],
    ]);
    expect(await file.call('getPerfValues', { kind: 'duration', name: 'queue' })).toEqual(
      new Float64Array([0.25, 1.5]),
    );
    await expect(file.call('getLazyValues', 0, 'tokens')).rejects.toThrow(
      'holds no list of numbers',
    );
    file.close();
    await expect(file.call('getPerf')).rejects.toThrow('closed');
  });

  it('prints its summary through the CLI command', async () => {
    const path = tinyFile();
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    expect(await runCommand(['summary', '--json', path], parseArgs, { formats: WITH_TINY })).toBe(
      0,
    );
    expect(JSON.parse(out.join(''))).toMatchObject({
      name: 'run.tiny.json',
      format: 'tinytrace',
      samples: 2,
      rows: 2,
      spans: 3,
      durationSec: 2,
    });
    out.length = 0;
    expect(await runCommand(['summary', path], parseArgs, { formats: WITH_TINY })).toBe(0);
    const text = out.join('');
    expect(text).toContain('format    tiny trace\n');
    expect(text).toContain('requests  2\n');
    // without the format, the binary refuses the file with a coded error naming it
    await expect(runCommand(['summary', path], parseArgs)).rejects.toThrow(
      new RegExp(
        // valid JSON: said so, with no byte to point at
        `run\\.tiny\\.json: valid JSON \\(.*\\), but ${escaped(notAny(FORMATS))} \\[open/unknown-format\\]`,
      ),
    );
  });

  it('opens through the TraceApi service, which asks its capabilities', async () => {
    const service = new TraceService(ingestInThread(WITH_TINY));
    const result = await service.open({
      openId: 'o1',
      sources: [
        {
          kind: 'bytes',
          name: 'run.tiny.json',
          bytesBase64: Buffer.from(TINY_BYTES).toString('base64'),
        },
      ],
    });
    if (!result.ok) throw new Error(result.error.message);
    const { fileId } = result.file;
    expect(result.file).toMatchObject({ format: 'tinytrace', path: null, rows: 2 });
    expect(result.file.capabilities.sourceGroups).toBe(false);
    expect((await service.listFiles()).map((f) => f.fileId)).toEqual([fileId]);
    const rows = await service.getRows(fileId, [0]);
    expect(rows[0].items.map((item) => item.name)).toEqual(['queue', 'decode']);
    // no samples: the details ask nothing of the file
    expect(await service.getSample(fileId, 0)).toEqual({ rowId: 0, fields: {} });
    const csv = await service.exportTrace(fileId, 'csv');
    expect(csv.fileName).toBe('run.tiny.rows.csv');
    expect(Buffer.from(csv.bytesBase64, 'base64').toString('utf8').trim().split('\n')).toHaveLength(
      3,
    );
    await service.close(fileId);
    expect(await service.listFiles()).toEqual([]);
  });
});
