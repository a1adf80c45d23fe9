import type { TraceHost } from '../host/trace-host';
import { useFilesStore } from '../state/files-store';
import { useRunStore } from './run-store';

let counter = 0;

/** Opens a run's folders and files in main (a worker per file, then the joins) as one tab. */
export async function openRun(host: TraceHost, paths: string[]): Promise<void> {
  const id = `run-${Date.now()}-${++counter}`;
  const title = paths.length === 1 ? baseName(paths[0]) : `${paths.length} files`;
  useRunStore.getState().start(id, title, paths);
  try {
    useRunStore.getState().finish(id, await host.api.openRun({ openId: id, paths }));
  } catch (error) {
    useRunStore.getState().fail(id, error instanceof Error ? error.message : String(error));
  }
}

/** Closes a run tab and every file it opened. */
export function closeRun(host: TraceHost, id: string): void {
  const run = useRunStore.getState().runs.find((r) => r.id === id);
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
 * (dumps with SGLang's file, trainer timelines), else each a file tab as before. Either way main
 * opens them once.
 */
export async function openDroppedTogether(host: TraceHost, paths: string[]): Promise<string[]> {
  const id = `run-${Date.now()}-${++counter}`;
  try {
    const result = await host.api.openRun({ openId: id, paths });
    if (result.isRun) {
      useRunStore.getState().start(id, `${paths.length} files`, paths);
      useRunStore.getState().finish(id, result);
      return [];
    }
    const files = useFilesStore.getState();
    for (const { file } of result.files) files.addFile(file);
    for (const error of result.errors) files.addError(error);
    return result.files.map(({ file }) => file.fileId);
  } catch (error) {
    useFilesStore.getState().addError({
      code: 'open/failed',
      message: error instanceof Error ? error.message : String(error),
      fileName: `${paths.length} files`,
    });
    return [];
  }
}
