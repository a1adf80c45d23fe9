import type { TraceHost } from '../host/trace-host';
import { useTrendsStore } from '../state/trends-store';
import { useRunStore } from '../run/run-store';

let counter = 0;

/** Reads a run's rollout dumps in main (a worker per dump, cached) and shows them as trends. */
export async function openTrends(host: TraceHost, paths: string[]): Promise<void> {
  const id = `trends-${Date.now()}-${++counter}`;
  const title = paths.length === 1 ? baseName(paths[0]) : `${paths.length} dumps`;
  useTrendsStore.getState().start(id, title, paths);
  try {
    const result = await host.api.openTrends({ openId: id, paths });
    useTrendsStore.getState().finish(id, result);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    useTrendsStore.getState().fail(id, message, false);
  }
}

/**
 * A run tab's trends (its Trends button): the trends tab of the same paths when one is open or
 * still reading, else a new one; shown in place of the run tab, which stays open behind it.
 */
export function showRunTrends(host: TraceHost, paths: string[]): void {
  useRunStore.getState().setActive(null);
  const same = useTrendsStore
    .getState()
    .sets.find(
      (t) =>
        (t.state === 'ready' || t.state === 'reading') &&
        t.paths.length === paths.length &&
        t.paths.every((p, k) => p === paths[k]),
    );
  if (same) useTrendsStore.getState().setActive(same.id);
  else void openTrends(host, paths);
}

export function baseName(path: string): string {
  return (
    path
      .replace(/[/\\]+$/, '')
      .split(/[/\\]/)
      .pop() ?? path
  );
}
