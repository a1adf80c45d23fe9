import { availableParallelism } from 'node:os';
import type { OpenProgressReport } from '../core/open/open-trace-file';
import type {
  FileCallMessage,
  HostInMessage,
  HostOutMessage,
  IngestMessage,
  IngestRequest,
} from './ingest-protocol';
import {
  connectIngest,
  type IngestJob,
  type IngestWorker,
  type PreviewListener,
} from './ingest-connection';
import { isGzip, sourceSize } from './source-size';

const MiB = 1024 * 1024;

/** Opens one request on a worker of its own (ingest-client.ts in the app). */
export type IngestRunner = (
  request: IngestRequest,
  onProgress: (progress: OpenProgressReport) => void,
  onPreview?: PreviewListener,
) => IngestJob;

/** A host thread as main sees it: a worker thread in the app (ingest-host-worker.ts). */
export interface HostWorker {
  postMessage(message: HostInMessage): void;
  on(event: 'message', listener: (message: HostOutMessage) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): unknown;
}

export interface PoolLimits {
  /** host threads started before a new file waits for a busy one */
  hosts: number;
  /** a file this large (all its sources) or larger gets a worker of its own */
  ownWorkerBytes: number;
  /**
   * what a host holds at most, counted as its files' bytes plus `fileCost` each: past it a new
   * host starts, so no one thread's heap nears V8's limit (memory stays the files' own)
   */
  hostBytes: number;
  /** what a file costs a host beside its bytes: its store, indexes and perf view when tiny */
  fileCost: number;
}

export const POOL_LIMITS: PoolLimits = {
  hosts: Math.max(2, availableParallelism()),
  ownWorkerBytes: 8 * MiB,
  hostBytes: 512 * MiB,
  fileCost: 64 * 1024,
};

interface Host {
  worker: HostWorker;
  /** each of its files' message, error and exit listeners, by session */
  files: Map<number, Listeners>;
  weight: number;
  /** its files still being read */
  reading: number;
}

interface Listeners {
  message?: (message: IngestMessage) => void;
  error?: (error: Error) => void;
  exit?: (code: number) => void;
}

/**
 * Where files open: a small file (under `ownWorkerBytes`, not gzip) on one of a few host
 * threads, each holding many files' stores (a thread costs ~8 MB: a folder of 20,000 tiny
 * files once took 471 threads and 4 GB); a large or compressed one on a worker of its own, as
 * before (its memory goes back when it closes, a crash or cancel ends only it). A host is
 * chosen idle first, then a new one while fewer than `hosts` run, then the least busy with
 * room; a host whose files are all closed ends.
 */
export class IngestPool {
  private readonly hosts = new Set<Host>();
  private nextSession = 1;

  constructor(
    private readonly makeHost: () => HostWorker,
    private readonly ownWorker: IngestRunner,
    private readonly limits: PoolLimits = POOL_LIMITS,
  ) {}

  /** How many host threads run now (tests, bench). */
  get hostCount(): number {
    return this.hosts.size;
  }

  readonly run: IngestRunner = (request, onProgress, onPreview) => {
    const bytes = request.sources.reduce((sum, source) => sum + sourceSize(source), 0);
    if (bytes >= this.limits.ownWorkerBytes || request.sources.some(isGzip))
      return this.ownWorker(request, onProgress, onPreview);
    const weight = bytes + this.limits.fileCost;
    const host = this.pick(weight);
    const session = this.nextSession++;
    host.files.set(session, {});
    host.weight += weight;
    host.reading++;
    let reading = true;
    const doneReading = () => {
      if (reading) host.reading--;
      reading = false;
    };
    const fileWorker: IngestWorker = {
      postMessage: (call: FileCallMessage) =>
        host.worker.postMessage({ type: 'call', session, call }),
      on: (event: keyof Listeners, listener: never) => {
        const listeners = host.files.get(session);
        if (listeners) listeners[event] = listener;
        return fileWorker;
      },
      terminate: () => {
        const listeners = host.files.get(session);
        if (!listeners) return;
        doneReading();
        host.files.delete(session);
        host.weight -= weight;
        if (host.files.size === 0) this.end(host);
        else host.worker.postMessage({ type: 'end', session });
        // as a worker's exit: calls still waiting are told the file's reader stopped
        listeners.exit?.(0);
      },
    };
    const job = connectIngest(fileWorker, onProgress, onPreview);
    void job.result.then(doneReading, doneReading);
    host.worker.postMessage({ type: 'open', session, request });
    return job;
  };

  private pick(weight: number): Host {
    const roomy = [...this.hosts].filter((h) => h.weight + weight <= this.limits.hostBytes);
    const idle = roomy.find((h) => h.reading === 0);
    if (idle) return idle;
    if (roomy.length === 0 || this.hosts.size < this.limits.hosts) return this.start();
    return roomy.reduce((a, b) => (b.reading < a.reading ? b : a));
  }

  private start(): Host {
    const host: Host = { worker: this.makeHost(), files: new Map(), weight: 0, reading: 0 };
    this.hosts.add(host);
    host.worker.on('message', ({ session, message }) =>
      host.files.get(session)?.message?.(message),
    );
    // a host that fails fails each file it holds, as a file's own worker would
    host.worker.on('error', (error) => {
      this.hosts.delete(host);
      for (const listeners of [...host.files.values()]) listeners.error?.(error);
    });
    host.worker.on('exit', (code) => {
      this.hosts.delete(host);
      for (const listeners of [...host.files.values()]) listeners.exit?.(code);
      host.files.clear();
    });
    return host;
  }

  private end(host: Host): void {
    this.hosts.delete(host);
    host.files.clear();
    void host.worker.terminate();
  }
}
