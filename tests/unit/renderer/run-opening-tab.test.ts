import { beforeEach, describe, expect, it } from 'vitest';
import type {
  FileSummary,
  HostEvent,
  RunResult,
  TraceApi,
} from '../../../src-main/core/api/trace-api';
import type { TraceHost } from '../../../src-renderer/host/trace-host';
import { closeRun, openRun } from '../../../src-renderer/run/open-run';
import { useRunStore } from '../../../src-renderer/run/run-store';
import { syncRuns } from '../../../src-renderer/run/sync-runs';

// The run tab's side of an opening run: openRun's answer and the 'run-updated' events travel
// apart (an HTTP answer, an event stream), so the tab must keep the later state whichever comes
// last, stop following at the complete one, and cancel the rest when closed early.

function state(fileCount: number, complete: boolean): RunResult {
  const files = Array.from({ length: fileCount }, (_, k) => ({
    file: { fileId: `f${k}`, name: `file-${k}` } as FileSummary,
    role: 'samples' as const,
  }));
  return {
    name: 'run',
    paths: ['/run'],
    files,
    errors: [],
    skipped: [],
    joins: {} as RunResult['joins'],
    isRun: true,
    pending: complete ? [] : [{ openId: 'x:9', name: 'big.json', path: '/run/big.json', bytes: 9 }],
    complete,
  };
}

/** A host whose openRun answers when the test says, with every call and listener recorded. */
function fakeHost() {
  const listeners = new Set<(event: HostEvent) => void>();
  const calls: string[] = [];
  let answer!: (result: RunResult) => void;
  /** what main's runNow answers: its latest state of the run */
  let now: RunResult | null = null;
  const api = {
    onHostEvent: (listener: (event: HostEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    openRun: (request: { openId: string; answer?: string }) => {
      calls.push(`openRun ${request.answer}`);
      return new Promise<RunResult>((resolve) => (answer = resolve));
    },
    cancelOpen: async (openId: string) => void calls.push(`cancelOpen ${openId}`),
    close: async (fileId: string) => void calls.push(`close ${fileId}`),
    runNow: async (openId: string) => {
      calls.push(`runNow ${openId}`);
      return now;
    },
  } as unknown as TraceApi;
  const host: TraceHost = {
    kind: 'browser',
    api,
    pathForFile: () => null,
    uploader: null,
    onEventsConnected: () => () => {},
  };
  const emit = (result: RunResult) => {
    const openId = useRunStore.getState().runs[0].id;
    for (const listener of [...listeners]) listener({ type: 'run-updated', openId, result });
  };
  return {
    host,
    calls,
    listeners,
    emit,
    answer: (r: RunResult) => answer(r),
    mainHas: (r: RunResult | null) => (now = r),
  };
}

beforeEach(() => useRunStore.setState({ runs: [], activeId: null }));

describe('a run tab while its files come in', () => {
  it('keeps the later state when the answer comes after an event, and stops at complete', async () => {
    const fake = fakeHost();
    const opening = openRun(fake.host, ['/run']);
    expect(fake.calls).toEqual(['openRun first-file']);
    expect(useRunStore.getState().runs[0].state).toBe('reading');
    fake.emit(state(2, false));
    fake.answer(state(1, false));
    await opening;
    const tab = useRunStore.getState().runs[0];
    expect(tab.state).toBe('ready');
    expect(tab.result!.files).toHaveLength(2);
    fake.emit(state(3, true));
    expect(useRunStore.getState().runs[0].result!.complete).toBe(true);
    expect(fake.listeners.size).toBe(0);
  });

  it('closing a run still opening cancels it, and files that come in after are closed', async () => {
    const fake = fakeHost();
    const opening = openRun(fake.host, ['/run']);
    fake.answer(state(1, false));
    await opening;
    const id = useRunStore.getState().runs[0].id;
    closeRun(fake.host, id);
    expect(fake.calls).toEqual(['openRun first-file', `cancelOpen ${id}`, 'close f0']);
    // a file that was being digested when the run was cancelled still arrives: it is closed
    for (const listener of [...fake.listeners])
      listener({ type: 'run-updated', openId: id, result: state(2, true) });
    expect(fake.calls.slice(3)).toEqual(['close f0', 'close f1']);
    expect(useRunStore.getState().runs).toEqual([]);
  });
});

describe('a run tab after a break in the event stream', () => {
  it('shows the state main has now, once, and stops following a run that finished meanwhile', async () => {
    const fake = fakeHost();
    const opening = openRun(fake.host, ['/run']);
    fake.answer(state(1, false));
    await opening;
    const id = useRunStore.getState().runs[0].id;
    // the 'run-updated' events of files 2 and 3 were lost: main has the run complete
    fake.mainHas(state(3, true));
    await syncRuns(fake.host);
    expect(fake.calls).toEqual(['openRun first-file', `runNow ${id}`]);
    const tab = useRunStore.getState().runs[0];
    expect(tab.result!.complete).toBe(true);
    expect(tab.result!.files.map(({ file }) => file.fileId)).toEqual(['f0', 'f1', 'f2']);
    expect(fake.listeners.size).toBe(0);
    // a complete run is not asked about again
    await syncRuns(fake.host);
    expect(fake.calls).toHaveLength(2);
  });

  it('a state already shown (or an older one) changes nothing; a later event still shows', async () => {
    const fake = fakeHost();
    const opening = openRun(fake.host, ['/run']);
    fake.answer(state(2, false));
    await opening;
    const shown = useRunStore.getState().runs[0].result;
    fake.mainHas(state(1, false));
    await syncRuns(fake.host);
    expect(useRunStore.getState().runs[0].result).toBe(shown);
    fake.mainHas(state(2, false));
    await syncRuns(fake.host);
    expect(useRunStore.getState().runs[0].result!.files).toHaveLength(2);
    // main has nothing of it (its files closed elsewhere): the tab stays as it is
    fake.mainHas(null);
    await syncRuns(fake.host);
    expect(useRunStore.getState().runs[0].result!.files).toHaveLength(2);
    // still following: the next event shows
    fake.emit(state(3, true));
    expect(useRunStore.getState().runs[0].result!.files).toHaveLength(3);
    expect(fake.listeners.size).toBe(0);
  });
});
