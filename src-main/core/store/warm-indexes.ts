import type { TraceStore } from './build-store';
import { STORE_SORT_KEYS, sortedRows } from './query-rows';
import {
  buildSearchTextSlice,
  buildSearchTrigramSlice,
  searchTextReady,
  searchTrigramsReady,
} from './search-text';
import { warmSampleDurations } from './sample-duration';

/** Rows of search text per step: tens of milliseconds, so calls wait no longer than that. */
const SEARCH_ROWS_PER_STEP = 500;
/** Rows of runs of three bytes per step (a pass over their texts: a few ms per 2,000 rows) */
const TRIGRAM_ROWS_PER_STEP = 2_000;

/**
 * The indexes a user's first sort or search would otherwise wait for (seconds at 100k rows),
 * built a step at a time once the file is open: each `next()` does one short step, and the
 * caller answers calls in between. The sorts users pick most come first, then the text index,
 * then every other order.
 */
export function* warmIndexes(store: TraceStore): Generator<void, void, void> {
  sortedRows(store, 'row_id', false);
  yield;
  yield* warmSampleDurations(store);
  // a step each: a call that comes meanwhile waits for one step (both orders of a key, or the
  // three indexes, in one step were 80-175 ms at 100k rows on a busy machine)
  sortedRows(store, 'duration', false);
  yield;
  sortedRows(store, 'duration', true);
  yield;
  // the filters' indexes, made when first asked (row-index.ts): a pass over the columns each
  for (const index of [store.rowsBySpanName, store.rowsByStatus, store.rowsBySource]) {
    void index.size;
    yield;
  }
  yield* warmSearchTexts(store);
  while (!searchTrigramsReady(store)) {
    buildSearchTrigramSlice(store, TRIGRAM_ROWS_PER_STEP);
    yield;
  }
  for (const key of STORE_SORT_KEYS) {
    for (const descending of [false, true]) {
      sortedRows(store, key, descending);
      yield;
    }
  }
}

/** Every row's search text, SEARCH_ROWS_PER_STEP rows a step (none when made as rows came in). */
export function* warmSearchTexts(store: TraceStore): Generator<void, void, void> {
  while (!searchTextReady(store)) {
    buildSearchTextSlice(store, SEARCH_ROWS_PER_STEP);
    yield;
  }
}
