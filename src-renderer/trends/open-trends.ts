import type { TraceHost } from '../host/trace-host';
import { useTrendsStore } from '../state/trends-store';

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

export function baseName(path: string): string {
  return (
    path
      .replace(/[/\\]+$/, '')
      .split(/[/\\]/)
      .pop() ?? path
  );
}
