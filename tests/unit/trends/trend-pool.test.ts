import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { TrendPool, type TrendJob } from '../../../src-main/trends/trend-pool';
import type { TrendJobResult } from '../../../src-main/trends/trend-protocol';

// The trend pool with stand-in threads that speak trend-worker.ts's protocol: what a job does
// is in its path. "wait:MS" answers after MS ms with a point naming the thread that read it;
// "exit" ends the thread, "throw" throws out of it, "spin" never returns (a synchronous read).
const STAND_IN = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', ({ job, path }) => {
  const [what, arg] = path.split(':');
  if (what === 'exit') process.exit(3);
  if (what === 'throw') throw new Error('the reader broke');
  if (what === 'spin') for (;;);
  const startMs = Date.now();
  parentPort.postMessage({ job, type: 'progress', bytesRead: 7 });
  setTimeout(() => parentPort.postMessage({
    job, type: 'done',
    point: {
      path, name: path, series: 'rollout', rolloutId: null,
      figures: { thread: threadId, startMs, endMs: Date.now() },
    },
  }), Number(arg));
});`;

/** A pool of stand-in threads, with every thread it started and a promise of each one's end. */
function standInPool(size: number) {
  const exits: Promise<number>[] = [];
  const pool = new TrendPool(size, () => {
    const worker = new Worker(STAND_IN, { eval: true });
    exits.push(new Promise((resolve) => worker.once('exit', resolve)));
    return worker;
  });
  return { pool, exits };
}

const threadOf = (result: TrendJobResult) =>
  result.type === 'done' ? result.point.figures.thread : `failed ${result.error.code}`;

describe('trend pool', () => {
  it('runs jobs in order, as many at once as it has threads, on threads it keeps', async () => {
    const { pool, exits } = standInPool(2);
    const events: string[] = [];
    const job = (path: string): TrendJob => ({
      path,
      onStart: () => events.push(`start ${path}`),
      onBytes: (bytes) => events.push(`bytes ${path} ${bytes}`),
    });
    const paths = ['wait:300', 'wait:20', 'wait:20', 'wait:20', 'wait:20'].map(
      (p, k) => `${p}:${k}`,
    );
    const results = await Promise.all(paths.map((path) => pool.run(job(path))));
    await pool.close();
    expect(results.map((r) => (r.type === 'done' ? r.point.path : r.error.code))).toEqual(paths);
    expect(events.filter((e) => e.startsWith('start'))).toEqual(paths.map((p) => `start ${p}`));
    expect(events).toContain(`bytes ${paths[4]} 7`);
    // when each job ran, on which thread, as the threads themselves say
    const spans = results.map((r) => (r.type === 'done' ? r.point.figures : {}));
    const atOnce = (t: number) => spans.filter((s) => s.startMs <= t && t < s.endMs).length;
    expect(Math.max(...spans.map((s) => atOnce(s.startMs)))).toBe(2);
    // five jobs, two threads: each thread read several dumps, one after another
    expect(new Set(spans.map((s) => s.thread)).size).toBe(2);
    for (const a of spans)
      for (const b of spans)
        if (a !== b && a.thread === b.thread)
          expect(a.endMs <= b.startMs || b.endMs <= a.startMs).toBe(true);
    expect(exits).toHaveLength(2);
  });

  it('a job’s caller hears its end before the next job starts on that thread', async () => {
    const { pool } = standInPool(1);
    const events: string[] = [];
    const run = (path: string) =>
      pool
        .run({ path, onStart: () => events.push(`start ${path}`) })
        .then(() => events.push(`end ${path}`));
    await Promise.all([run('wait:5:a'), run('wait:5:b')]);
    await pool.close();
    // the trends progress says a file is done before it says the next is reading
    expect(events).toEqual(['start wait:5:a', 'end wait:5:a', 'start wait:5:b', 'end wait:5:b']);
  });

  it('a thread that exits or throws fails only its job, and a new thread takes the next', async () => {
    const { pool, exits } = standInPool(1);
    const results = await Promise.all(
      ['wait:5:a', 'exit', 'wait:5:b', 'throw', 'wait:5:c'].map((path) => pool.run({ path })),
    );
    await pool.close();
    expect(results.map((r) => (r.type === 'failed' ? r.error : r.type))).toEqual([
      'done',
      { code: 'open/worker-failed', message: 'the reading thread ended (3)' },
      'done',
      { code: 'open/worker-failed', message: 'the reader broke' },
      'done',
    ]);
    // each lost thread was replaced: three threads read the three good dumps
    const threads = [results[0], results[2], results[4]].map(threadOf);
    expect(new Set(threads).size).toBe(3);
    expect(exits).toHaveLength(3);
  });

  it('cancel ends the running job’s thread and drops the queued ones unstarted', async () => {
    const { pool, exits } = standInPool(1);
    const controller = new AbortController();
    const started: string[] = [];
    const job = (path: string): TrendJob => ({
      path,
      signal: controller.signal,
      onStart: () => started.push(path),
    });
    const spinning = pool.run(job('spin'));
    const queued = pool.run(job('wait:5'));
    // an unrelated job without the signal still runs after the cancel, on a fresh thread
    const other = pool.run({ path: 'wait:5:other' });
    controller.abort();
    const cancelled = { type: 'failed', error: { code: 'open/cancelled', message: 'cancelled' } };
    expect(await spinning).toEqual(cancelled);
    expect(await queued).toEqual(cancelled);
    expect((await other).type).toBe('done');
    expect(started).toEqual(['spin']);
    // a job whose signal is already aborted never starts
    expect(await pool.run(job('wait:5'))).toEqual(cancelled);
    await pool.close();
    expect(exits).toHaveLength(2);
    await Promise.all(exits);
  });

  it('close ends every thread and cancels what is still queued', async () => {
    const { pool, exits } = standInPool(2);
    const jobs = ['spin', 'spin', 'wait:5'].map((path) => pool.run({ path }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.close();
    const results = await Promise.all(jobs);
    expect(results.map((r) => (r.type === 'failed' ? r.error.code : r.type))).toEqual([
      'open/cancelled',
      'open/cancelled',
      'open/cancelled',
    ]);
    // the spinning threads are gone, not left running: both report their end
    expect(await Promise.all(exits)).toHaveLength(2);
    expect(await pool.run({ path: 'wait:5' })).toMatchObject({ type: 'failed' });
  });
});
