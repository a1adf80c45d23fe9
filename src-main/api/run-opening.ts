import { basename } from 'node:path';
import type {
  FileError,
  FileSummary,
  OpenResult,
  RunFileRole,
  RunPendingFile,
  RunRequest,
  RunResult,
} from '../core/api/trace-api';
import type { RunFileDigest } from '../core/model/run';
import { buildRunJoins } from '../core/run/build-run-joins';
import type { RunFiles } from '../ingest/run-files';

/** How many of a run's files are opened at once (each on its own worker). */
export const RUN_OPEN_CONCURRENCY = 3;

/** What opening a run asks of the service: one file's open, and its digest once it is in. */
export interface RunOpenSteps {
  openFile(openId: string, paths: string[]): Promise<OpenResult>;
  digestOf(fileId: string): Promise<RunFileDigest>;
}

/** One of the run's traces: a file, or a rotated set of files opened as one. */
export interface RunGroup {
  paths: string[];
  bytes: number;
  /** its format holds rollout samples (a dump): the rows a run tab is mostly about */
  holdsSamples: boolean;
}

/**
 * The order a run's traces are opened in. The largest first, on a worker of its own: it is the
 * longest open (a 500 MB SGLang file takes a minute or more), and starting it last would make
 * the run complete only a whole open after everything else. Beside it, on the other workers, the
 * smallest dump first, so that sample rows show within seconds (trainer ranks can outnumber dumps, and a rank
 * of JSON lines is slower per byte than a dump), then the rest smallest first: each comes in
 * soon, and the joins grow with it.
 */
export function runOpenOrder(groups: Pick<RunGroup, 'bytes' | 'holdsSamples'>[]): number[] {
  const ascending = groups
    .map((_, k) => k)
    .sort((x, y) => groups[x].bytes - groups[y].bytes || x - y);
  if (ascending.length === 0) return [];
  const largest = ascending.pop()!;
  const firstDump = ascending.findIndex((k) => groups[k].holdsSamples);
  const dump = firstDump < 0 ? [] : ascending.splice(firstDump, 1);
  return [largest, ...dump, ...ascending];
}

/**
 * A run being opened: its files opened a few at a time, each digested as it comes in, the joins
 * rebuilt over the digests so far (they are cheap) and the new state told to `onUpdate`.
 * `firstAnswer` settles when the first file is in or failed, `allFiles` when none is pending.
 */
export class RunOpening {
  private readonly files: { file: FileSummary; role: RunFileRole }[] = [];
  private readonly digests: RunFileDigest[] = [];
  private readonly errors: FileError[] = [];
  private readonly pending = new Map<number, RunPendingFile>();
  /** files in the order they are taken by a free worker (the largest is not among them) */
  private readonly queue: number[];
  private readonly started = new Set<number>();
  private cancelled = false;
  private next = 0;
  readonly firstAnswer: Promise<RunResult>;
  readonly allFiles: Promise<RunResult>;
  private answerFirst!: (result: RunResult) => void;
  /** settles when the first dump is in or failed (or the run is cancelled) */
  private readonly firstDump: Promise<void>;
  private firstDumpIn!: () => void;

  constructor(
    private readonly request: RunRequest,
    private readonly found: RunFiles,
    private readonly groups: RunGroup[],
    private readonly steps: RunOpenSteps,
    private readonly onUpdate: (result: RunResult) => void,
  ) {
    groups.forEach((group, k) =>
      this.pending.set(k, {
        openId: `${request.openId}:${k}`,
        name: basename(group.paths[0]),
        path: group.paths[0],
        bytes: group.bytes,
      }),
    );
    const [largest, ...others] = runOpenOrder(groups);
    this.queue = others;
    this.firstAnswer = new Promise((resolve) => (this.answerFirst = resolve));
    this.firstDump = new Promise((resolve) => (this.firstDumpIn = resolve));
    // The largest waits for the first dump (when another file is one): on 2 loaded cores every
    // reader beside it slows the dump that gives the tab its first sample rows; the run's total
    // grows by that dump's open, a few seconds beside the largest file's minute.
    const waits = others.some((k) => groups[k].holdsSamples);
    if (!waits) this.firstDumpIn();
    const slots = [
      largest === undefined ? Promise.resolve() : this.openLargest(largest),
      ...Array.from({ length: Math.min(RUN_OPEN_CONCURRENCY, groups.length) - 1 }, () =>
        this.openQueued(),
      ),
    ];
    this.allFiles = Promise.all(slots).then(() => {
      const result = this.snapshot();
      this.answerFirst(result); // a run without files answers at once
      return result;
    });
  }

  /** Stops the run: files not started are not opened; the ones being read are told to stop. */
  cancel(cancelFile: (openId: string) => void): void {
    this.cancelled = true;
    this.firstDumpIn();
    for (const [k, file] of this.pending) {
      if (this.started.has(k)) cancelFile(file.openId);
      else {
        this.pending.delete(k);
        this.errors.push(cancelledError(file.name));
      }
    }
    // the state without the files never started, for a run with none being read too
    if (![...this.pending.keys()].some((k) => this.started.has(k))) {
      this.onUpdate(this.snapshot());
    }
  }

  private async openLargest(k: number): Promise<void> {
    await this.firstDump;
    if (!this.cancelled) await this.openOne(k);
    await this.openQueued();
  }

  private async openQueued(): Promise<void> {
    while (!this.cancelled && this.next < this.queue.length) {
      await this.openOne(this.queue[this.next++]);
    }
  }

  private async openOne(k: number): Promise<void> {
    this.started.add(k);
    const file = this.pending.get(k)!;
    const result = await this.steps.openFile(file.openId, this.groups[k].paths);
    if (result.ok) {
      // a worker that dies answering its digest fails that file, not the run
      const digest = await this.steps.digestOf(result.file.fileId).catch((error: unknown) => {
        this.errors.push({
          code: 'open/internal',
          message: `no run digest: ${error instanceof Error ? error.message : String(error)}`,
          fileName: file.name,
        });
        return null;
      });
      if (digest) {
        this.files.push({ file: result.file, role: digest.role });
        this.digests.push(digest);
      }
    } else this.errors.push(result.error);
    this.pending.delete(k);
    if (this.groups[k].holdsSamples) this.firstDumpIn();
    const state = this.snapshot();
    this.answerFirst(state);
    this.onUpdate(state);
  }

  private snapshot(): RunResult {
    const { paths } = this.request;
    return {
      name: paths.length === 1 ? basename(paths[0]) : `${paths.length} paths`,
      paths,
      files: [...this.files],
      errors: [...this.errors],
      skipped: this.found.skipped,
      joins: buildRunJoins(this.digests),
      isRun: this.found.isRun,
      pending: [...this.pending.values()],
      complete: this.pending.size === 0,
    };
  }
}

function cancelledError(fileName: string): FileError {
  return { code: 'open/cancelled', message: 'the run was cancelled', fileName };
}
