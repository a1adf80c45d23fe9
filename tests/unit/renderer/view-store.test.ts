import { beforeEach, describe, expect, it } from 'vitest';
import { useViewStore } from '../../../src-renderer/state/view-store';

const initial = useViewStore.getState();
beforeEach(() => useViewStore.setState(initial, true));

describe('view state per file', () => {
  it('each file keeps its own sort, filter and highlights; a new file starts plain', () => {
    const store = useViewStore.getState();
    store.showFile(null, 'a');
    store.setSort('duration', true);
    store.setFilter({ statuses: ['aborted'], rowIds: [3, 4] });
    store.setPickedLabel('e2e latency 1-2 s');
    store.setHighlightNames(['sglang_generate']);
    store.setFilterMode('highlight');
    store.setMatching(new Set([3]));

    useViewStore.getState().showFile('a', 'b');
    // b was never shown: unsorted, unfiltered, nothing picked (a's row ids mean nothing in b)
    expect(useViewStore.getState()).toMatchObject({
      sort: 'row_id',
      descending: false,
      filter: {},
      filterMode: 'filter',
      pickedLabel: null,
      highlightNames: null,
      matchingRowIds: null,
    });
    useViewStore.getState().setSort('start');

    useViewStore.getState().showFile('b', 'a');
    expect(useViewStore.getState()).toMatchObject({
      sort: 'duration',
      descending: true,
      filter: { statuses: ['aborted'], rowIds: [3, 4] },
      filterMode: 'highlight',
      pickedLabel: 'e2e latency 1-2 s',
      highlightNames: ['sglang_generate'],
      // recomputed by the next query
      matchingRowIds: null,
    });
    useViewStore.getState().showFile('a', 'b');
    expect(useViewStore.getState().sort).toBe('start');
  });

  it('showing the same file again changes nothing', () => {
    useViewStore.getState().setSort('duration');
    const before = useViewStore.getState();
    useViewStore.getState().showFile('a', 'a');
    expect(useViewStore.getState()).toBe(before);
  });

  it("a preview that starts earlier moves the file's stored window and cursor with it", () => {
    const store = useViewStore.getState();
    store.setWindow('a', { startSec: 10, endSec: 20 });
    store.setCursor('a', 12);
    store.setWindow('b', { startSec: 1, endSec: 2 });
    useViewStore.getState().shiftTimes('a', 2.5);
    const after = useViewStore.getState();
    expect(after.windows.a).toEqual({ startSec: 12.5, endSec: 22.5 });
    expect(after.cursors.a).toBe(14.5);
    expect(after.windows.b).toEqual({ startSec: 1, endSec: 2 });
  });
});
