import type { TraceHost } from '../host/trace-host';
import { adoptRunState } from './open-run';
import { useRunStore } from './run-store';

/**
 * Asks main where each run tab still opening is, for when its 'run-updated' events may have been
 * lost (serve mode's event stream broke and came back): the tab shows the files that came in
 * meanwhile and the joins over them, and a run that finished meanwhile shows finished. The
 * store keeps the later of two states, so a state already shown changes nothing.
 */
export async function syncRuns(host: TraceHost): Promise<void> {
  const opening = useRunStore
    .getState()
    .runs.filter((r) => r.state !== 'failed' && !r.result?.complete);
  await Promise.all(
    opening.map(async ({ id }) => {
      const state = await host.api.runNow(id);
      // null: no file of it in yet (openRun's answer brings the first state), or closed since
      if (state) adoptRunState(host, id, state);
    }),
  );
}
