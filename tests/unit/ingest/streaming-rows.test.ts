import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  FileSummary,
  OpenProgress,
  RowFacts,
  RowOrder,
  RowView,
} from '../../../src-main/core/api/trace-api';
import { runIngestSession, type SessionPort } from '../../../src-main/ingest/ingest-session';
import type {
  FileCallMessage,
  FileCallName,
  IngestMessage,
} from '../../../src-main/ingest/ingest-protocol';
import { TraceService } from '../../../src-main/api/trace-service';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { ingestInThread } from '../../support/in-thread-ingest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import { buildStore } from '../../../src-main/core/store/build-store';
import { searchTextsOf, searchTextReady } from '../../../src-main/core/store/search-text';
// the bench's writer: dumps shaped like slime's
import { writeSlimeDump } from '../../bench/slime-dump-writer.mjs';

/** every row's search text, as strings */
const textsOf = (store: Parameters<typeof searchTextsOf>[0]) => {
  const column = searchTextsOf(store);
  return Array.from({ length: column.length }, (_, r) => column.text(r));
};

// Issue 18: rows appear before the file is fully read. A dump of 600 samples is generated
// here (appended to the pickle's list in batches of 50, where torch's pickler appends 1000:
// several batches in a small file); the worker's session previews the rows read so far and
// answers calls on them between reading steps.
const SAMPLES = 600;
let dir: string;
let path: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'streaming-rows-'));
  path = join(dir, 'rollout_0.pt');
  expect(writeSlimeDump(path, Infinity, 16, SAMPLES, { batchSize: 50 })).toBe(SAMPLES);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker's port in this thread: calls queued for `receive`, messages kept in order. */
function scriptedPort(callsAtFirstPreview: FileCallMessage[]) {
  const posted: IngestMessage[] = [];
  const queue: FileCallMessage[] = [];
  let listener: ((message: FileCallMessage) => void) | null = null;
  const port: SessionPort = {
    postMessage(message) {
      posted.push(structuredClone(message));
      if (message.type === 'preview' && posted.filter((m) => m.type === 'preview').length === 1) {
        queue.push(...callsAtFirstPreview);
      }
    },
    on(_event, l) {
      listener = l;
    },
    receive: () => queue.shift(),
  };
  return { port, posted, send: (message: FileCallMessage) => listener?.(message) };
}

const call = (id: number, method: FileCallName, ...args: unknown[]): FileCallMessage => ({
  type: 'call',
  id,
  method,
  args,
});

describe('rows stream while a dump is read', () => {
  it('answers calls on the first rows before the whole file is read', () => {
    const firstIds = [0, 1, 2, 3, 4];
    const { port, posted, send } = scriptedPort([
      call(1, 'queryRows', { sort: 'row_id' }),
      call(2, 'getRows', firstIds),
      call(4, 'getRowFacts'),
    ]);
    runIngestSession(port, { sources: [{ kind: 'path', path }] });
    const kinds = posted.map((m) => m.type);
    const done = kinds.indexOf('done');
    expect(done).toBe(kinds.length - 1);
    // both answers came before the file was done, from the first preview: its 50 rows
    const answers = posted.filter((m) => m.type === 'answer');
    expect(answers.map((m) => m.id)).toEqual([1, 2, 4]);
    expect(kinds.indexOf('answer')).toBeLessThan(done);
    const order = answers[0].result as RowOrder;
    expect(Array.from(order.rowIds)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(order.total).toBe(50);
    // the preview's facts: the same store as its order, one entry per row read so far
    const previewFacts = answers[2].result as RowFacts;
    expect(previewFacts.storeVersion).toBe(order.storeVersion);
    // the rows' ids are their places 0..49: left out of the facts
    expect(previewFacts.rowIds).toBeNull();
    expect(previewFacts.laneCounts).toHaveLength(50);
    const previews = posted.flatMap((m) => (m.type === 'preview' ? [m.summary] : []));
    expect(previews[0]).toMatchObject({ streaming: true, rows: 50, samples: 50 });
    // later previews grow (doubling, or a quarter after a second) and stay below the whole file
    // while it is read; the last is the whole file, shown before the steps that come before
    // it is said open (search texts, perf digest, durations)
    const counts = previews.map((p) => p.rows);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThan(counts[i - 1]);
    expect(counts.at(-2)).toBeLessThan(SAMPLES);
    expect(previews.at(-1)).toMatchObject({ streaming: true, rows: SAMPLES, samples: SAMPLES });
    // the whole file: every row, no streaming mark; its rows are the rows the preview showed
    const summary = (posted[done] as { type: 'done'; summary: FileSummary }).summary;
    expect(summary.rows).toBe(SAMPLES);
    expect(summary.streaming).toBeUndefined();
    send(call(3, 'getRows', firstIds));
    send(call(5, 'queryRows', { sort: 'row_id' }));
    send(call(6, 'getRowFacts'));
    const answerOf = (id: number) =>
      (posted.find((m) => m.type === 'answer' && m.id === id) as { result: unknown }).result;
    // the whole file is another store: its order and facts carry its version, not the preview's
    const wholeOrder = answerOf(5) as RowOrder;
    const wholeFacts = answerOf(6) as RowFacts;
    expect(wholeOrder.storeVersion).toBe(wholeFacts.storeVersion);
    expect(wholeFacts.storeVersion).not.toBe(previewFacts.storeVersion);
    expect(wholeFacts.laneCounts).toHaveLength(SAMPLES);
    // a row's lanes are the same in the preview and the whole file
    expect(Array.from(wholeFacts.laneCounts.subarray(0, 50))).toEqual(
      Array.from(previewFacts.laneCounts),
    );
    const early = answers[1].result as RowView[];
    const final = (posted.find((m) => m.type === 'answer' && m.id === 3) as { result: RowView[] })
      .result;
    expect(early.map((r) => r.rowId)).toEqual(firstIds);
    const shape = (rows: RowView[]) =>
      rows.map((r) => ({
        rowId: r.rowId,
        sampleIndex: r.sampleIndex,
        status: r.status,
        durationSec: r.endSec - r.startSec,
        names: r.items.map((i) => i.name),
      }));
    expect(shape(early)).toEqual(shape(final));
  });

  it('the service lists the file from its first preview, then the whole file under one id', async () => {
    const seen: { phase: string; file?: FileSummary }[] = [];
    const service = new TraceService(ingestInThread(FORMATS));
    service.onProgress((p) => seen.push({ phase: p.phase, file: p.file }));
    const result = await service.open({ openId: 'o1', sources: [{ kind: 'path', path }] });
    if (!result.ok) throw new Error(result.error.message);
    const previews = seen.filter((p) => p.file);
    expect(previews.length).toBeGreaterThan(1);
    expect(previews[0].file).toMatchObject({
      streaming: true,
      rows: 50,
      bytes: statSync(path).size,
    });
    expect(new Set(previews.map((p) => p.file!.fileId))).toEqual(new Set([result.file.fileId]));
    expect(result.file.streaming).toBeUndefined();
    expect((await service.listFiles()).map((f) => [f.fileId, f.rows])).toEqual([
      [result.file.fileId, SAMPLES],
    ]);
  });

  it('a renderer that comes late is told of the open in progress and its rows so far (openingNow)', async () => {
    const service = new TraceService(ingestInThread(FORMATS));
    let lastPreview: FileSummary | null = null;
    const asked: Promise<unknown>[] = [];
    service.onProgress((p) => {
      if (p.file) lastPreview = p.file;
      // a progress without rows after a preview: what a page that loads now would have missed
      else if (lastPreview && asked.length === 0 && p.phase === 'reading')
        asked.push(service.openingNow().then((now) => ({ now, shown: lastPreview })));
    });
    const result = await service.open({ openId: 'o1', sources: [{ kind: 'path', path }] });
    if (!result.ok) throw new Error(result.error.message);
    expect(asked).toHaveLength(1);
    const { now, shown } = (await asked[0]) as { now: OpenProgress[]; shown: FileSummary };
    expect(now).toHaveLength(1);
    expect(now[0]).toMatchObject({ openId: 'o1', name: 'rollout_0.pt', phase: 'reading' });
    expect(now[0].file).toEqual(shown);
    expect(now[0].file!.rows).toBeLessThan(SAMPLES);
    // once the file is open nothing is opening any more
    expect(await service.openingNow()).toEqual([]);
  });

  it('the whole file is searchable as soon as it is read: texts were made as rows came in', () => {
    let previews = 0;
    const trace = openTraceFile([openFileSource(path)], { onPreview: () => previews++ });
    expect(previews).toBeGreaterThan(1);
    expect(searchTextReady(trace.store)).toBe(true);
    // the same answers as texts made after opening, from a store of its own
    const after = buildStore({ rows: trace.rows.map((row) => ({ ...row })) });
    expect(searchTextReady(after)).toBe(false);
    expect(textsOf(trace.store)).toEqual(textsOf(after));
    // without previews (the headless commands) nothing is made while reading
    const headless = openTraceFile([openFileSource(path)]);
    expect(searchTextReady(headless.store)).toBe(false);
  });
});
