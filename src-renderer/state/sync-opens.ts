import type { TraceApi } from '../../src-main/core/api/trace-api';
import { useFilesStore } from './files-store';

/**
 * Asks main what is going on, for when its events may have been lost (the page loaded after
 * opens began; serve mode's event stream broke and came back): opens main started that it no
 * longer lists are over, shown as main has them (the whole file, or gone); the ones it lists
 * show with their rows so far.
 */
export async function syncOpens(
  api: Pick<TraceApi, 'openingNow' | 'listFiles'>,
  /** opens shown elsewhere (a run's files): not opening files here */
  shownElsewhere: (openId: string) => boolean = () => false,
): Promise<void> {
  // only opens heard of before main was asked can be told over by not being listed: one heard
  // of since may have begun after main answered
  const askedAbout = new Set(useFilesStore.getState().opening.map((o) => o.openId));
  const listed = (await api.openingNow()).filter((p) => !shownElsewhere(p.openId));
  // asked after openingNow answered: an open over by then has its whole file listed (or none)
  const files = await api.listFiles();
  useFilesStore.getState().settleOpens(askedAbout, listed, files);
}
