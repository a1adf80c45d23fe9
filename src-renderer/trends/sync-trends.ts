import type { TraceApi } from '../../src-main/core/api/trace-api';
import { useTrendsStore } from '../state/trends-store';

/**
 * Asks main how far each trends tab still reading is, for when its 'trends-progress' events may
 * have been lost (serve mode's event stream broke and came back): the dumps read meanwhile show
 * as read. The points themselves come with openTrends' answer, never as events.
 */
export async function syncTrends(api: Pick<TraceApi, 'trendsNow'>): Promise<void> {
  const reading = useTrendsStore.getState().sets.filter((t) => t.state === 'reading');
  await Promise.all(
    reading.map(async ({ id }) => {
      const progress = await api.trendsNow(id);
      // null: the call has answered meanwhile, and its answer shows every dump
      if (progress) useTrendsStore.getState().catchUp(id, progress);
    }),
  );
}
