import { beforeEach, describe, expect, it } from 'vitest';
import type {
  FileSummary,
  HostEvent,
  OpenProgress,
  RunResult,
  TraceApi,
} from '../../../src-main/core/api/trace-api';
import type { TraceHost } from '../../../src-renderer/host/trace-host';
import { openDroppedTogether } from '../../../src-renderer/run/open-run';
import { runReading } from '../../../src-renderer/run/run-reading';
import { describeReading } from '../../../src-renderer/run/RunOpeningItems';
import { runIdOfFileOpen, useRunStore } from '../../../src-renderer/run/run-store';
import { useFilesStore } from '../../../src-renderer/state/files-store';
import { emptyFilesStore } from './empty-files-store';

// A run's files are opened by main each as its own open (`<run id>:<k>`, api/run-opening.ts),
// with progress events like any file's. They belong to the run: its tab's strip lists them and
// the top bar shows the run as one opening item; they are never opening files of their own
// (each with a Cancel of its own, as they were).

// decimal, as the app shows sizes (src-renderer/units/byte-size.ts)
const MB = 1e6;

function progress(openId: string, bytesRead: number, bytesTotal: number): OpenProgress {
  return { openId, name: openId, bytesRead, bytesTotal, samplesRead: 0, phase: 'reading' };
}

function file(fileId: string, bytes: number): { file: FileSummary; role: 'samples' } {
  return { file: { fileId, name: fileId, bytes } as FileSummary, role: 'samples' };
}

/** a run of 4 files: one in (10 MB), one failed, two pending (30 MB being read, 50 MB waiting) */
function halfway(runId: string): RunResult {
  return {
    name: 'run',
    paths: ['/run'],
    files: [file('f0', 10 * MB)],
    errors: [{ code: 'zip/eocd-not-found', message: 'broken', fileName: 'broken.pt' }],
    skipped: [],
    joins: {} as RunResult['joins'],
    isRun: true,
    pending: [
      { openId: `${runId}:3`, name: 'waiting.json', path: '/run/waiting.json', bytes: 50 * MB },
      { openId: `${runId}:2`, name: 'big.pt', path: '/run/big.pt', bytes: 30 * MB },
    ],
    complete: false,
  };
}

beforeEach(() => {
  useRunStore.setState({ runs: [], activeId: null, closedIds: new Set() });
  emptyFilesStore();
});

describe("a run's files while they open", () => {
  it("are the run's by main's naming of their opens", () => {
    expect(runIdOfFileOpen('run-17-2:0')).toBe('run-17-2');
    expect(runIdOfFileOpen('run-17-2:12')).toBe('run-17-2');
    expect(runIdOfFileOpen('open-17-2')).toBeNull();
  });

  it("keep their progress with their run, not as opening files; other opens' are not theirs", () => {
    const runs = useRunStore.getState();
    runs.start('run-1', 'my-run', ['/run']);
    expect(useRunStore.getState().fileProgress(progress('run-1:2', 3 * MB, 30 * MB))).toBe(true);
    expect(useRunStore.getState().runs[0].reading).toEqual({
      'run-1:2': { bytesRead: 3 * MB, bytesTotal: 30 * MB },
    });
    // a file's own open, and a run this page never opened, are opening files as before
    expect(useRunStore.getState().fileProgress(progress('open-5-1', 1, 2))).toBe(false);
    expect(useRunStore.getState().fileProgress(progress('run-9:0', 1, 2))).toBe(false);
    // a closed run's files still send their last events (cancelled): still the run's
    useRunStore.getState().remove('run-1');
    expect(useRunStore.getState().fileProgress(progress('run-1:2', 4 * MB, 30 * MB))).toBe(true);
  });

  it('count inside the run: files in, every file, bytes of all, the ones being read first', () => {
    useRunStore.getState().start('run-1', 'my-run', ['/run']);
    // before main first answers, only the files' own progress says anything
    useRunStore.getState().fileProgress(progress('run-1:2', 3 * MB, 30 * MB));
    const early = runReading(useRunStore.getState().runs[0])!;
    expect(early).toMatchObject({ filesIn: 0, files: null, bytesRead: 3 * MB });
    expect(describeReading(early)).toBe('opening · 3.0 / 30.0 MB');

    useRunStore.getState().update('run-1', halfway('run-1'));
    const reading = runReading(useRunStore.getState().runs[0])!;
    expect(reading.filesIn).toBe(2);
    expect(reading.files).toBe(4);
    expect(reading.bytesRead).toBe(13 * MB);
    expect(reading.bytesTotal).toBe(90 * MB);
    expect(reading.pending.map((p) => p.file.name)).toEqual(['big.pt', 'waiting.json']);
    expect(describeReading(reading)).toBe('2 of 4 files in · 13.0 / 90.0 MB');

    useRunStore.getState().update('run-1', { ...halfway('run-1'), pending: [], complete: true });
    expect(runReading(useRunStore.getState().runs[0])).toBeNull();
  });

  it('that showed as opening files before main said they are a run are handed over to it', async () => {
    const listeners = new Set<(event: HostEvent) => void>();
    const api = {
      onHostEvent: (listener: (event: HostEvent) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      openRun: async (request: { openId: string }) => {
        // files dropped together: their opens begin before main answers whether they are a run
        useFilesStore.getState().progress(progress(`${request.openId}:0`, 1, 10));
        useFilesStore.getState().progress(progress('open-other', 1, 10));
        expect(useFilesStore.getState().opening).toHaveLength(2);
        return halfway(request.openId);
      },
    } as unknown as TraceApi;
    const host = { kind: 'browser', api } as unknown as TraceHost;
    await openDroppedTogether(host, ['/a.pt', '/sglang.json']);
    const runId = useRunStore.getState().runs[0].id;
    // the run's file went to the run; another open stays an opening file
    expect(useFilesStore.getState().opening.map((o) => o.openId)).toEqual(['open-other']);
    // and a late event of it does not bring it back
    useFilesStore.getState().progress(progress(`${runId}:0`, 2, 10));
    expect(useFilesStore.getState().opening.map((o) => o.openId)).toEqual(['open-other']);
  });
});
