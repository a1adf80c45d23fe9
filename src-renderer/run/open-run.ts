import { rememberPaths } from '../state/recent-paths';
import type { RunResult } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { useFilesStore } from '../state/files-store';
import { useRunStore } from './run-store';

let counter = 0;

/** How each run tab still opening hears of its states: stopped when one is complete. */
const following = new Map<string, () => void>();

/**
 * Calls `onState` with each state of the run `openId` that main announces ('run-updated'), until
 * the complete one. Subscribed before openRun is called, so that no arrival is missed.
 */
function followRun(host: TraceHost, openId: string, onState: (result: RunResult) => void) {
  const stop = host.api.onHostEvent((event) => {
    if (event.type !== 'run-updated' || event.openId !== openId) return;
    onState(event.result);
    if (event.result.complete) off();
  });
  const off = () => {
    stop();
    following.delete(openId);
  };
  following.set(openId, off);
  return off;
}

/**
 * Opens a run's folders and files in main as one tab. Main answers when the first file is in;
 * the tab shows its rows and grows as the rest come in (each a 'run-updated' event).
 */
export async function openRun(host: TraceHost, paths: string[]): Promise<void> {
  rememberPaths(paths);
  const id = `run-${Date.now()}-${++counter}`;
  const title = paths.length === 1 ? baseName(paths[0]) : `${paths.length} files`;
  useRunStore.getState().start(id, title, paths);
  const off = followRun(host, id, (result) => adoptRunState(host, id, result));
  try {
    const first = await host.api.openRun({ openId: id, paths, answer: 'first-file' });
    adoptRunState(host, id, first);
    if (first.complete) off();
  } catch (error) {
    off();
    useRunStore.getState().fail(id, error instanceof Error ? error.message : String(error));
  }
}

/**
 * A state of the run into its tab (an event, openRun's answer, or main's answer to runNow after
 * a break in the event stream); a tab closed meanwhile closes the files still coming in. Once
 * the run is complete no more of its events come: they are no longer listened for.
 */
export function adoptRunState(host: TraceHost, id: string, result: RunResult): void {
  if (result.complete) following.get(id)?.();
  if (!useRunStore.getState().runs.some((r) => r.id === id)) {
    for (const { file } of result.files) void host.api.close(file.fileId);
    return;
  }
  useRunStore.getState().update(id, result);
}

/** Stops opening the files of a run not yet in; those already in stay. */
export function cancelRun(host: TraceHost, id: string): void {
  void host.api.cancelOpen(id);
}

/** Closes a run tab and every file it opened (and stops the ones still being opened). */
export function closeRun(host: TraceHost, id: string): void {
  const run = useRunStore.getState().runs.find((r) => r.id === id);
  if (run && !run.result?.complete) void host.api.cancelOpen(id);
  for (const { file } of run?.result?.files ?? []) void host.api.close(file.fileId);
  useRunStore.getState().remove(id);
}

function baseName(path: string): string {
  return (
    path
      .replace(/[/\\]+$/, '')
      .split(/[/\\]/)
      .pop() ?? path
  );
}

/**
 * Files dropped together (the desktop app knows their paths): one run tab when they are a run
 * (dumps with SGLang's file, trainer timelines), else each a file tab as before, once all are in.
 * Either way main opens them once.
 */
export async function openDroppedTogether(host: TraceHost, paths: string[]): Promise<string[]> {
  rememberPaths(paths);
  const id = `run-${Date.now()}-${++counter}`;
  let latest: RunResult | null = null;
  let isTab = false;
  let completed!: (result: RunResult) => void;
  const complete = new Promise<RunResult>((done) => (completed = done));
  const off = followRun(host, id, (result) => {
    latest = result;
    if (isTab) adoptRunState(host, id, result);
    if (result.complete) completed(result);
  });
  try {
    const first = await host.api.openRun({ openId: id, paths, answer: 'first-file' });
    if (first.isRun) {
      isTab = true;
      useRunStore.getState().start(id, `${paths.length} files`, paths);
      // its files' progress came before main said they are a run: they showed as opening files
      useFilesStore.getState().handOver((openId) => useRunStore.getState().ownsOpen(openId));
      adoptRunState(host, id, first);
      // a state that came before the answer
      if (latest) adoptRunState(host, id, latest);
      if (first.complete) off();
      return [];
    }
    const result = first.complete ? first : await complete;
    off();
    const files = useFilesStore.getState();
    for (const { file } of result.files) files.addFile(file);
    for (const error of result.errors) files.addError(error);
    return result.files.map(({ file }) => file.fileId);
  } catch (error) {
    off();
    useFilesStore.getState().addError({
      code: 'open/failed',
      message: error instanceof Error ? error.message : String(error),
      fileName: `${paths.length} files`,
    });
    return [];
  }
}
