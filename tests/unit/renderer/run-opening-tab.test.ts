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
  return { host, calls, listeners, emit, answer: (r: RunResult) => answer(r) };
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
