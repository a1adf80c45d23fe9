import type { OpenOptions, OpenedTrace } from '../core/open/open-trace-file';
import { stepTimer, type TimedStep } from '../core/open/step-timer';
import { NotFoundError } from '../core/api/call-errors';
import { isFormatError } from '../core/bytes/format-error';
import type { FileCallMessage, FileCalls, IngestMessage, IngestRequest } from './ingest-protocol';
import { ingest, toFileError } from './open-sources';
import { fileCalls, previewCalls } from './file-calls';
import { warmIndexes, warmSearchTexts } from '../core/store/warm-indexes';
import { warmCompareDigest } from '../core/compare/compare-traces';
import { warmSampleDurations } from '../core/store/sample-duration';
import { warmPerfDigest } from '../core/open/perf-digest';
import { startMark } from './start-marks';

/** A worker's side of its channel to main: `parentPort` in a worker thread. */
export interface SessionPort {
  postMessage(message: IngestMessage): void;
  on(event: 'message', listener: (message: FileCallMessage) => void): unknown;
  /**
   * The next call main sent, without waiting (node's receiveMessageOnPort): while the file is
   * still being read the thread never returns to its event loop, so calls on the rows read so
   * far are taken here, between reading steps.
   */
  receive?(): FileCallMessage | undefined;
}

// Parse, post progress at most every PROGRESS_INTERVAL_MS (and previews of the rows read so
// far, answering calls on them between reading steps), then keep the opened file and answer
// calls on it until main ends the worker (close or cancel). The rows never cross threads: a
// million items cost seconds and their size again to copy.

/**
 * Each progress event redraws the page's top bar: in Chromium without a GPU that cost 7 ms of
 * its CPU an event, taken from the two threads reading the file. At 50 ms, Chromium used
 * 3.3-3.9 s of CPU while the real-shaped 100k dump was read; at 200 ms, 2.3-2.5 s. Five
 * updates a second still move the bar smoothly.
 */
const PROGRESS_INTERVAL_MS = 200;

/**
 * One open file's life in its worker: open it, say how that went, answer calls on it.
 * `setup.formats` is FORMATS in the app (a test passes one more); `setup.partReader` reads the
 * end of a large file on a helper thread.
 */
export function runIngestSession(
  port: SessionPort,
  request: IngestRequest,
  setup: Pick<OpenOptions, 'formats' | 'partReader'> = {},
): void {
  startMark('session-start');
  const post = (message: IngestMessage) => port.postMessage(message);
  const answer = (calls: FileCalls, message: FileCallMessage) => {
    try {
      const method = calls[message.method] as (...args: unknown[]) => unknown;
      post({ type: 'answer', id: message.id, result: method(...message.args) });
    } catch (error) {
      post({
        type: 'answer',
        id: message.id,
        error: {
          notFound: error instanceof NotFoundError,
          // a coded error (a file changed or gone since it was opened) keeps its code in view
          message: isFormatError(error)
            ? `${error.message} (${error.code})`
            : error instanceof Error
              ? error.message
              : String(error),
        },
      });
    }
  };
  let preview: FileCalls | null = null;
  let previewed = false;
  const answerPending = () => {
    if (preview === null || !port.receive) return;
    for (let message = port.receive(); message; message = port.receive()) answer(preview, message);
  };
  let lastProgress = 0;
  try {
    const timer = stepTimer();
    const trace = ingest(request, {
      ...setup,
      onStepEnd: (step) => {
        timer.end(step);
        startMark(`step-${step}`);
        // every byte is read: the preview answers what came meanwhile, then is let go before
        // the whole file's store, texts and perf view are made beside it (its store copied
        // the columns of the rows so far: at 100k rows, part of the open's peak)
        if (step === 'read') {
          answerPending();
          preview = null;
        }
      },
      onPreview: (rowsSoFar) => {
        preview = previewCalls(rowsSoFar, request.sources);
        previewed = true;
        post({ type: 'preview', summary: rowsSoFar.summary });
        startMark(`preview-posted-${rowsSoFar.summary.rows}`);
        answerPending();
      },
      onProgress: (progress) => {
        if (lastProgress === 0) startMark('first-progress');
        answerPending();
        const now = Date.now();
        if (now - lastProgress < PROGRESS_INTERVAL_MS && progress.phase === 'reading') return;
        lastProgress = now;
        post({ type: 'progress', progress });
      },
    });
    // a file shown while it was read shows every row now: the whole file as the last preview,
    // its calls answered between the steps below (the page draws every row while they run; a
    // file still being read asks no perf view). The page waited for them: 0.9-1.2 s at 100k
    // samples. A file that showed nothing while read shows itself once, when open.
    if (previewed) {
      preview = previewCalls(trace, request.sources);
      post({ type: 'preview', summary: { ...trace.summary, streaming: true } });
      startMark(`preview-posted-${trace.summary.rows}`);
    }
    const calls = fileCalls(trace, request.sources);
    for (const [step, steps] of madeBeforeOpen(trace)) {
      for (let next = steps.next(); !next.done; next = steps.next()) answerPending();
      answerPending();
      timer.end(step);
      startMark(`step-${step.replace(' ', '-')}`);
    }
    preview = null;
    // every step until the file is said to be open (the bench prints where the time went)
    trace.summary.openTimings = timer.timings();
    if (trace.helperShare !== undefined) trace.summary.openTimings.helperShare = trace.helperShare;
    // calls that wait for the warm-up to end (WAIT_FOR_WARM), answered in order then
    let waitingForWarm: FileCallMessage[] | null = [];
    port.on('message', (message: FileCallMessage) => {
      if (waitingForWarm !== null && WAIT_FOR_WARM.has(message.method))
        waitingForWarm.push(message);
      else answer(calls, message);
    });
    post({ type: 'done', summary: trace.summary });
    startMark('done-posted');
    whenIdle(warmAfterOpening(trace), () => {
      const waiting = waitingForWarm ?? [];
      waitingForWarm = null;
      for (const message of waiting) answer(calls, message);
    });
  } catch (error) {
    post({ type: 'failed', error: toFileError(error) });
  }
}

/**
 * What the file's first clicks would otherwise wait for, made before it is said open and after
 * every row is shown, a step at a time: the search texts of rows given only at the end (a
 * helper's part), the perf digest (the perf view one small answer away), each row's own
 * duration (a sort by duration asked as the file opened waited 0.15 s at 100k rows for the
 * warm-up to make them).
 */
function madeBeforeOpen(trace: OpenedTrace): [TimedStep, Generator<void, void, void>][] {
  return [
    ['search texts', warmSearchTexts(trace.store)],
    ['perf digest', warmPerfDigest(trace.perf)],
    ['durations', warmSampleDurations(trace.store)],
  ];
}

/**
 * What a user's first sort, search or compare would wait for, made while the worker is idle:
 * the store's indexes, then (rollout dumps, the files users compare) the compare digest.
 */
function* warmAfterOpening(trace: OpenedTrace): Generator<void, void, void> {
  yield* warmIndexes(trace.store);
  if (trace.summary.capabilities.samples) yield* warmCompareDigest(trace);
}

/**
 * Runs a stepwise job one step per turn of the event loop, so the calls that arrive meanwhile
 * are answered between steps (setImmediate runs after pending messages are handled), then
 * `then`.
 */
function whenIdle(steps: Generator<void, void, void>, then: () => void): void {
  const step = () => {
    let done = true;
    try {
      done = steps.next().done === true;
    } finally {
      // a step that throws ends the job: what waits for its end is answered all the same
      if (done) then();
      else setImmediate(step);
    }
  };
  setImmediate(step);
}

/** Calls answered only once the warm-up is over: what main asks ahead of a compare. */
const WAIT_FOR_WARM: ReadonlySet<string> = new Set<keyof FileCalls>([
  'compareDigestWhenWarm',
  'compareWith',
]);
