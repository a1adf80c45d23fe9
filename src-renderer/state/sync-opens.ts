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

/**
 * syncOpens one at a time: a sync asked for while one runs runs once after it (several asked
 * meanwhile, once). Two at once lost an open: the page loaded as a file named at start-up
 * finished, the first ask listed its open as reading and the second, whose snapshot of the
 * opens heard of was taken before the first's answer added it, no longer listed it, so nothing
 * ended it and its opening item stayed in the top bar for good.
 */
export function opensSyncInTurn(
  api: Pick<TraceApi, 'openingNow' | 'listFiles'>,
  shownElsewhere?: (openId: string) => boolean,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  const run = async (): Promise<void> => {
    try {
      do {
        again = false;
        // a failed ask changes nothing: the next one asks again
        await syncOpens(api, shownElsewhere).catch(() => {});
      } while (again);
    } finally {
      running = null;
    }
  };
  return () => {
    if (running !== null) {
      again = true;
      return running;
    }
    running = run();
    return running;
  };
}
