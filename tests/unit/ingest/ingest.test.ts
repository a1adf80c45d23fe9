import { EventEmitter } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupPaths } from '../../../src-main/ingest/group-files';
import type { FileCallMessage, IngestMessage } from '../../../src-main/ingest/ingest-protocol';
import { runIngestSession } from '../../../src-main/ingest/ingest-session';
import { OTLP, SLIME, readJson } from '../../support/fixtures';

// ingest/: which files a named folder opens as, and a worker's session (open, say how it went,
// answer calls), driven through a port as the worker thread's parentPort would be.

describe('groupPaths: what named paths open as', () => {
  const folder = mkdtempSync(join(tmpdir(), 'te-group-'));
  for (const name of ['rollout_7.pt', 'rollout_8.pt'])
    copyFileSync(resolve(SLIME, name), join(folder, name));
  for (const name of ['roll_traces.jsonl', 'roll_traces.1.jsonl'])
    copyFileSync(resolve(OTLP, name), join(folder, name));
  writeFileSync(join(folder, 'notes.md'), '# not a trace\n');
  mkdirSync(join(folder, 'nested'));

  it('a folder: each dump alone, a rotated set once (oldest first), the rest skipped with a reason', () => {
    const groups = groupPaths([folder]);
    expect(groups.groups).toEqual([
      [join(folder, 'roll_traces.jsonl'), join(folder, 'roll_traces.1.jsonl')],
      [join(folder, 'rollout_7.pt')],
      [join(folder, 'rollout_8.pt')],
    ]);
    expect(groups.skipped.map((s) => s.path)).toEqual([
      join(folder, 'nested'),
      join(folder, 'notes.md'),
    ]);
    expect(groups.skipped[0].reason).toBe('a folder (folders inside a folder are not opened)');
    expect(groups.emptyFolders).toEqual([]);
    expect(groups.trendFolders).toEqual([]);
  });

  it('with trends: two or more dumps make the folder a trends folder; the OTLP set still opens', () => {
    const groups = groupPaths([folder], { trendFolders: true });
    expect(groups.trendFolders).toEqual([folder]);
    expect(groups.groups).toEqual([
      [join(folder, 'roll_traces.jsonl'), join(folder, 'roll_traces.1.jsonl')],
    ]);
  });

  it('a named file opens alone, even one of a rotated set; an empty folder is said', () => {
    const empty = mkdtempSync(join(tmpdir(), 'te-group-empty-'));
    const groups = groupPaths([join(folder, 'roll_traces.1.jsonl'), empty]);
    expect(groups.groups).toEqual([[join(folder, 'roll_traces.1.jsonl')]]);
    expect(groups.emptyFolders).toEqual([empty]);
  });
});

/** A worker's parentPort: records what the session posts, lets the test send it calls. */
class FakePort extends EventEmitter {
  readonly posted: IngestMessage[] = [];
  postMessage(message: IngestMessage) {
    this.posted.push(structuredClone(message));
  }
  call(message: FileCallMessage) {
    this.emit('message', message);
  }
}

describe('runIngestSession: a worker’s open file', () => {
  it('opens, says done with the summary and step timings, then answers calls by id', () => {
    const port = new FakePort();
    const path = resolve(SLIME, 'rollout_small.pt');
    runIngestSession(port, { sources: [{ kind: 'path', path }] });
    const done = port.posted.find((m) => m.type === 'done') as Extract<
      IngestMessage,
      { type: 'done' }
    >;
    // 16 samples, one row each (tests/fixtures/slime/README.md)
    expect(done.summary).toMatchObject({ format: 'slime', samples: 16, rows: 16 });
    // the step timer's read time and the whole open, in seconds, read within the open, and
    // each step until the file was said to be open, in order: they add up to the open
    const timings = done.summary.openTimings!;
    expect(Object.keys(timings).sort()).toEqual(['openSec', 'readSec', 'steps']);
    expect(timings.readSec).toBeGreaterThan(0);
    expect(timings.readSec).toBeLessThanOrEqual(timings.openSec);
    const steps = timings.steps!;
    expect(steps.map((s) => s.step)).toEqual([
      'read',
      'rows',
      'store',
      'perf',
      'search texts',
      'perf digest',
      'durations',
    ]);
    for (const { seconds } of steps) expect(seconds).toBeGreaterThanOrEqual(0);
    expect(steps[0].seconds).toBeCloseTo(timings.readSec, 9);
    const stepsSum = steps.reduce((sum, s) => sum + s.seconds, 0);
    expect(stepsSum).toBeLessThanOrEqual(timings.openSec + 1e-9);
    expect(timings.openSec - stepsSum).toBeLessThan(0.05);
    expect(port.posted.at(-1)).toBe(port.posted.find((m) => m.type === 'done'));

    const cache = readJson<{ rows: { trace_id: string }[] }>(`${path}.expected.json`);
    port.call({ type: 'call', id: 7, method: 'getRows', args: [[3]] });
    const answer = port.posted.at(-1) as Extract<IngestMessage, { type: 'answer' }>;
    expect(answer.id).toBe(7);
    expect((answer.result as { traceId: string }[]).map((r) => r.traceId)).toEqual([
      cache.rows[3].trace_id,
    ]);
    port.call({ type: 'call', id: 8, method: 'getSample', args: [999] });
    expect(port.posted.at(-1)).toEqual({
      type: 'answer',
      id: 8,
      error: { notFound: true, message: expect.stringContaining('999') },
    });
  });

  it('shows every row before the steps that come before done, answering calls between them', () => {
    // a worker's port with node's receiveMessageOnPort: calls asked while the thread is busy
    class ReceivingPort extends FakePort {
      readonly queued: FileCallMessage[] = [];
      receive = () => this.queued.shift();
    }
    const port = new ReceivingPort();
    const path = resolve(SLIME, 'rollout_small.pt');
    const asked = [
      { type: 'call', id: 1, method: 'getRows', args: [[15]] },
      { type: 'call', id: 2, method: 'queryRows', args: [{ sort: 'row_id' }] },
    ] satisfies FileCallMessage[];
    // the page asks for the rows of each preview as it comes (ids 1, 2 at the first, 11, 12 at
    // the next, ...): the last preview is the whole file's
    let previews = 0;
    port.postMessage = (message: IngestMessage) => {
      port.posted.push(structuredClone(message));
      if (message.type !== 'preview') return;
      const base = 10 * previews++;
      port.queued.push(...asked.map((m) => ({ ...m, id: m.id + base })));
    };
    runIngestSession(port, { sources: [{ kind: 'path', path }] });
    const kinds = port.posted.filter((m) => m.type !== 'progress');
    const whole = kinds.findLastIndex((m) => m.type === 'preview');
    const done = kinds.findIndex((m) => m.type === 'done');
    const preview = kinds[whole] as Extract<IngestMessage, { type: 'preview' }>;
    // the whole file's summary, still streaming (the page asks no perf view of it)
    expect(preview.summary).toMatchObject({ rows: 16, samples: 16, streaming: true });
    const base = 10 * (previews - 1);
    const answers = kinds.slice(whole + 1, done);
    expect(answers.map((m) => m.type === 'answer' && m.id)).toEqual([1 + base, 2 + base]);
    expect(port.queued).toEqual([]);
    // what the whole open file answers to the same calls
    for (const message of asked) port.call({ ...message, id: message.id + 100 });
    const after = port.posted.slice(-2) as Extract<IngestMessage, { type: 'answer' }>[];
    answers.forEach((answer, k) =>
      expect((answer as { result: unknown }).result).toEqual(after[k].result),
    );
  });

  it('a file it cannot read: one failed message with the code, offset and message', () => {
    const port = new FakePort();
    runIngestSession(port, { sources: [{ kind: 'path', path: resolve(SLIME, 'not_a_dump.pt') }] });
    expect(port.posted.filter((m) => m.type !== 'progress')).toEqual([
      {
        type: 'failed',
        error: {
          // 64 KiB of random bytes (slime/README.md)
          code: 'slime/not-a-dump',
          offset: 0,
          message: 'not a torch.save file (no ZIP header, no legacy magic number) (at byte 0)',
        },
      },
    ]);
  });

  it('a path that does not exist: a coded I/O error, not a crash', () => {
    const port = new FakePort();
    runIngestSession(port, { sources: [{ kind: 'path', path: '/no/such/file.pt' }] });
    expect(port.posted).toHaveLength(1);
    expect(port.posted[0]).toMatchObject({
      type: 'failed',
      error: { code: expect.stringMatching(/^io\//) },
    });
  });
});
