import type { Worker } from 'node:worker_threads';
import type {
  TrendJobMessage,
  TrendJobRequest,
  TrendJobResult,
  TrendWorkerMessage,
} from './trend-protocol';

/** One dump to read on the pool, with what its caller hears of it. */
export interface TrendJob {
  path: string;
  /** the dump's run digest too (TrendJobRequest.digest) */
  digest?: boolean;
  /** a thread has taken the job (it waited in the queue until then) */
  onStart?: () => void;
  onBytes?: (bytesRead: number) => void;
  /** cancels the job: a queued one never starts, a running one's thread is ended */
  signal?: AbortSignal;
}

const CANCELLED: TrendJobResult = {
  type: 'failed',
  error: { code: 'open/cancelled', message: 'cancelled' },
};

interface Queued {
  id: number;
  job: TrendJob;
  /** ends the job once (later calls do nothing), no longer listening to its signal */
  settle: (result: TrendJobResult) => void;
}

/** A thread of the pool and the job it runs (null: idle). */
interface Slot {
  worker: Worker;
  running: Queued | null;
}

/**
 * A few long-lived trend workers (trend-worker.ts), each reading one dump at a time, the rest
 * queued: starting a thread and loading the readers once per pool rather than per dump. A
 * thread that dies or errors fails only the job it ran and is replaced when the next job
 * starts. `close` ends every thread, so nothing outlives the trends call that made the pool.
 */
export class TrendPool {
  private readonly queue: Queued[] = [];
  private readonly slots = new Set<Slot>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly spawn: () => Worker,
  ) {}

  /** The dump's point, or why there is none; never rejects. */
  run(job: TrendJob): Promise<TrendJobResult> {
    if (this.closed || job.signal?.aborted) return Promise.resolve(CANCELLED);
    return new Promise((resolve) => {
      const abort = () => this.cancel(queued);
      const queued: Queued = {
        id: this.nextId++,
        job,
        settle: (result) => {
          job.signal?.removeEventListener('abort', abort);
          resolve(result);
        },
      };
      this.queue.push(queued);
      job.signal?.addEventListener('abort', abort, { once: true });
      this.pump();
    });
  }

  /** Ends every thread; queued jobs end cancelled. */
  async close(): Promise<void> {
    this.closed = true;
    for (const queued of this.queue.splice(0)) queued.settle(CANCELLED);
    const slots = [...this.slots];
    this.slots.clear();
    for (const slot of slots) slot.running?.settle(CANCELLED);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  /** Hands queued jobs to idle threads, starting threads up to the pool's size. */
  private pump(): void {
    while (!this.closed && this.queue.length > 0) {
      let slot = [...this.slots].find((s) => s.running === null);
      if (!slot && this.slots.size < this.size) slot = this.startThread();
      if (!slot) return;
      const queued = this.queue.shift()!;
      slot.running = queued;
      queued.job.onStart?.();
      const { path, digest } = queued.job;
      slot.worker.postMessage({
        job: queued.id,
        path,
        ...(digest ? { digest } : {}),
      } satisfies TrendJobRequest);
    }
  }

  private startThread(): Slot {
    const slot: Slot = { worker: this.spawn(), running: null };
    this.slots.add(slot);
    slot.worker.on('message', (message: TrendJobMessage) => {
      const running = slot.running;
      // a message of a job already ended (cancelled) is no one's
      if (running === null || message.job !== running.id) return;
      if (message.type === 'progress') running.job.onBytes?.(message.bytesRead);
      else this.finish(slot, toResult(message));
    });
    slot.worker.on('error', (error) =>
      this.lose(slot, { code: 'open/worker-failed', message: error.message }),
    );
    slot.worker.on('exit', (code) =>
      this.lose(slot, {
        code: 'open/worker-failed',
        message: `the reading thread ended (${code})`,
      }),
    );
    return slot;
  }

  private finish(slot: Slot, result: TrendJobResult): void {
    const running = slot.running!;
    slot.running = null;
    running.settle(result);
    this.pumpSoon();
  }

  /** A thread that errored or ended: its job fails, and a new thread takes the next job. */
  private lose(slot: Slot, error: { code: string; message: string }): void {
    if (!this.slots.delete(slot)) return; // already replaced (an 'exit' after its 'error')
    void slot.worker.terminate();
    slot.running?.settle({ type: 'failed', error });
    slot.running = null;
    this.pumpSoon();
  }

  private cancel(queued: Queued): void {
    const at = this.queue.indexOf(queued);
    if (at >= 0) {
      this.queue.splice(at, 1);
      queued.settle(CANCELLED);
      return;
    }
    const slot = [...this.slots].find((s) => s.running === queued);
    if (!slot) return; // it has ended
    // the thread is inside a synchronous read: ending it is the only way to stop it
    this.slots.delete(slot);
    slot.running = null;
    void slot.worker.terminate();
    queued.settle(CANCELLED);
    // after the other listeners of the same abort: jobs it also cancels must not start first
    this.pumpSoon();
  }

  /**
   * pump, once what the ended job's caller does with its result has run: its file is reported
   * done before the next file is reported reading
   */
  private pumpSoon(): void {
    setImmediate(() => this.pump());
  }
}

function toResult(message: Exclude<TrendWorkerMessage, { type: 'progress' }>): TrendJobResult {
  if (message.type === 'failed') return { type: 'failed', error: message.error };
  const { point, digest } = message;
  return digest ? { type: 'done', point, digest } : { type: 'done', point };
}
