import { create } from 'zustand';
import type { RowFilter, SortKey } from '../../src-main/core/api/trace-api';

export interface Selection {
  fileId: string;
  rowId: number;
  /** item index within the row; null when the row itself is selected */
  index: number | null;
}

/** The visible time range, in seconds from the file's global start. */
export interface TimeWindow {
  startSec: number;
  endSec: number;
}

/** What a file's rows are asked with; each file keeps its own while another file is shown. */
export type FileQueryState = Pick<
  ViewState,
  'sort' | 'descending' | 'filter' | 'filterMode' | 'pickedLabel' | 'highlightNames'
>;

const DEFAULT_QUERY: FileQueryState = {
  sort: 'row_id',
  descending: false,
  filter: {},
  filterMode: 'filter',
  pickedLabel: null,
  highlightNames: null,
};

export interface ViewState {
  selection: Selection | null;
  sort: SortKey;
  descending: boolean;
  filter: RowFilter;
  /** per file: the visible time range; absent means "fit all" */
  windows: Record<string, TimeWindow>;
  /** filter hides rows that do not match; highlight keeps them, dimmed (slime's attempt selector) */
  filterMode: 'filter' | 'highlight';
  /** in highlight mode: the rows that match, or null when every row does */
  matchingRowIds: Set<number> | null;
  /** the id of the registered tab view shown (views/registry.ts) */
  view: string;
  /** time under the pointer per window key, so compared timelines share one cursor */
  cursors: Record<string, number | null>;
  setCursor(key: string, sec: number | null): void;
  /**
   * per window key, whether the time axis reads the wall clock (UTC) instead of seconds from
   * the start: compared timelines share it, and it stays across tabs and views
   */
  wallClocks: Record<string, boolean>;
  setWallClock(key: string, on: boolean): void;
  detailsOpen: boolean;
  /** the timeline's lane height in CSS pixels (density) */
  laneHeight: number;
  setLaneHeight(px: number): void;
  /** the label column's width when a user dragged it; null means fit to the file */
  labelWidth: number | null;
  setLabelWidth(px: number | null): void;
  /** what filter.rowIds came from (a perf histogram bin), for the toolbar chip */
  pickedLabel: string | null;
  setPickedLabel(label: string | null): void;
  /**
   * span names the timeline highlights (others dim): a legend click's one name, or the spans a
   * perf histogram bin's values came from; null highlights nothing
   */
  highlightNames: string[] | null;
  setHighlightNames(names: string[] | null): void;
  setFilterMode(mode: 'filter' | 'highlight'): void;
  setMatching(rowIds: Set<number> | null): void;
  setView(view: string): void;
  setDetailsOpen(open: boolean): void;
  select(selection: Selection | null): void;
  setSort(sort: SortKey, descending?: boolean): void;
  setFilter(filter: RowFilter): void;
  patchFilter(patch: Partial<RowFilter>): void;
  setWindow(fileId: string, window: TimeWindow | null): void;
  /**
   * a file's stored window and cursor moved by `deltaSec`: its times are seconds from its
   * earliest start, which moves back when a row read later starts earlier (previews)
   */
  shiftTimes(fileId: string, deltaSec: number): void;
  /** each timeline's vertical scroll (by window key), kept while its view is mounted again */
  scrollTops: Record<string, number>;
  setScrollTop(key: string, top: number): void;
  /** the query state of files not shown now, by file id */
  queries: Record<string, FileQueryState>;
  /**
   * another file is shown: the shown file's sort, filter and highlights are kept for it, and
   * the next file's own come back (a new file starts unsorted and unfiltered)
   */
  showFile(previousFileId: string | null, nextFileId: string | null): void;
}

/** View state only (selection, order, filter, viewport): data stays in main's store. */
export const useViewStore = create<ViewState>()((set) => ({
  ...DEFAULT_QUERY,
  selection: null,
  windows: {},
  matchingRowIds: null,
  view: 'timeline',
  cursors: {},
  setCursor: (key, sec) =>
    set((s) => (s.cursors[key] === sec ? s : { cursors: { ...s.cursors, [key]: sec } })),
  wallClocks: {},
  setWallClock: (key, on) => set((s) => ({ wallClocks: { ...s.wallClocks, [key]: on } })),
  detailsOpen: true,
  laneHeight: 16,
  setLaneHeight: (laneHeight) => set({ laneHeight }),
  labelWidth: null,
  setLabelWidth: (labelWidth) => set({ labelWidth }),
  // a new pick (or its clearing) drops the last pick's highlight; a bin pick sets its own after
  setPickedLabel: (pickedLabel) => set({ pickedLabel, highlightNames: null }),
  setHighlightNames: (highlightNames) => set({ highlightNames }),
  setFilterMode: (filterMode) => set({ filterMode }),
  setMatching: (matchingRowIds) => set({ matchingRowIds }),
  setView: (view) => set({ view }),
  setDetailsOpen: (detailsOpen) => set({ detailsOpen }),
  select: (selection) => set({ selection }),
  setSort: (sort, descending = false) => set({ sort, descending }),
  setFilter: (filter) => set({ filter }),
  patchFilter: (patch) => set((s) => ({ filter: { ...s.filter, ...patch } })),
  setWindow: (fileId, window) =>
    set((s) => {
      const windows = { ...s.windows };
      if (window) windows[fileId] = window;
      else delete windows[fileId];
      return { windows };
    }),
  shiftTimes: (fileId, deltaSec) =>
    set((s) => {
      const window = s.windows[fileId];
      const cursor = s.cursors[fileId];
      return {
        windows: window
          ? {
              ...s.windows,
              [fileId]: { startSec: window.startSec + deltaSec, endSec: window.endSec + deltaSec },
            }
          : s.windows,
        cursors:
          cursor !== undefined && cursor !== null
            ? { ...s.cursors, [fileId]: cursor + deltaSec }
            : s.cursors,
      };
    }),
  queries: {},
  showFile: (previousFileId, nextFileId) =>
    set((s) => {
      if (previousFileId === nextFileId) return s;
      const queries = { ...s.queries };
      if (previousFileId !== null) {
        const { sort, descending, filter, filterMode, pickedLabel, highlightNames } = s;
        queries[previousFileId] = {
          sort,
          descending,
          filter,
          filterMode,
          pickedLabel,
          highlightNames,
        };
      }
      const next = (nextFileId !== null ? queries[nextFileId] : undefined) ?? DEFAULT_QUERY;
      return { ...next, queries, matchingRowIds: null };
    }),
  scrollTops: {},
  setScrollTop: (key, top) =>
    set((s) => (s.scrollTops[key] === top ? s : { scrollTops: { ...s.scrollTops, [key]: top } })),
}));
