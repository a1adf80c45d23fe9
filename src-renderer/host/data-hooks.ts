import { useEffect, useRef, useState } from 'react';
import { queryShownRows, type ShownOrder } from './shown-order';
import type {
  FileSummary,
  GroupPage,
  GroupQuery,
  PerfDigest,
  RowView,
  RowWindow,
  SampleDetails,
  SpanDetails,
} from '../../src-main/core/api/trace-api';
import { useViewStore } from '../state/view-store';
import { isFilterActive } from '../state/filter-state';
import { useHost } from './host-context';
import { WINDOW_REST_MS, windowCovered } from './row-window';
import type { TraceHost } from './trace-host';

/**
 * The row order the toolbar's sort and filter ask for. Highlight mode keeps every row in order
 * and marks the ones the filter matches (in the view store).
 */
export function useRowOrder(file: FileSummary): ShownOrder | null {
  const host = useHost();
  const sort = useViewStore((s) => s.sort);
  const descending = useViewStore((s) => s.descending);
  const filter = useViewStore((s) => s.filter);
  const filterMode = useViewStore((s) => s.filterMode);
  const setMatching = useViewStore((s) => s.setMatching);
  const [order, setOrder] = useState<ShownOrder | null>(null);
  useEffect(() => {
    let live = true;
    // highlight mode: every row shown, the filter's ids only marked (no facts needed for those)
    const highlight = filterMode === 'highlight';
    const all = queryShownRows(
      host.api,
      file.fileId,
      highlight ? { sort, descending } : { sort, descending, filter },
      file.rows,
    );
    const filtered = highlight
      ? host.api.queryRows(file.fileId, { sort, descending, filter })
      : all;
    void Promise.all([filtered, all]).then(([match, shown]) => {
      if (!live) return;
      setOrder(shown);
      const highlighting = filterMode === 'highlight' && isFilterActive(filter);
      setMatching(highlighting ? new Set(match.rowIds) : null);
      document.body.dataset.shownRows = String(match.rowIds.length);
    });
    return () => {
      live = false;
    };
    // file.rows: a file still being read grows (previews), and its order with it
  }, [host, file.fileId, file.rows, sort, descending, filter, filterMode, setMatching]);
  return order;
}

/** A page of rows as fetched so far, and the rows that could not be fetched, with why. */
export interface RowPage {
  rows: Map<number, RowView>;
  failed: Map<number, string>;
}

/**
 * The rows at display positions [first, last] plus `margin` either side, fetched as they come
 * into view and kept; the latest request wins the idle flag tests wait on. A row too big to send
 * whole (RowView.detail) is sent for `window`, and asked again once the window has moved past
 * what it was sent for or zoomed in on it: after the window rests (a wheel zoom moves it many
 * times a second), and one ask per row at a time. A failed row is kept with its error, not
 * asked again.
 */
export function useRowPage(
  fileId: string,
  rowIds: Int32Array,
  first: number,
  last: number,
  margin: number,
  window: RowWindow | null = null,
): RowPage {
  const host = useHost();
  const [rowsById, setRowsById] = useState<Map<number, RowView>>(new Map());
  const [failed, setFailed] = useState<Map<number, string>>(new Map());
  /** rows asked and not answered yet */
  const asking = useRef(new Set<number>());
  const windowStart = window?.startSec;
  const windowEnd = window?.endSec;
  const pixels = window?.pixels;
  useEffect(() => {
    const shown: RowWindow | null =
      windowStart === undefined || windowEnd === undefined || pixels === undefined
        ? null
        : { startSec: windowStart, endSec: windowEnd, pixels };
    const from = Math.max(0, first - margin);
    const to = Math.min(rowIds.length - 1, last + margin);
    const missing: number[] = [];
    const stale: number[] = [];
    for (let i = from; i <= to; i++) {
      const id = rowIds[i];
      if (failed.has(id) || asking.current.has(id)) continue;
      const row = rowsById.get(id);
      if (!row) missing.push(id);
      else if (shown && row.detail && !windowCovered(row.detail, shown)) stale.push(id);
    }
    if (missing.length === 0 && stale.length === 0) {
      if (asking.current.size === 0) document.body.dataset.idle = 'true';
      return;
    }
    document.body.dataset.idle = 'false';
    const ask = (ids: number[]) => {
      for (const id of ids) asking.current.add(id);
      host.api.getRows(fileId, ids, shown).then(
        (rows) => {
          for (const id of ids) asking.current.delete(id);
          const answered = new Set(rows.map((row) => row.rowId));
          const lost = ids.filter((id) => !answered.has(id));
          setRowsById((prev) => {
            const next = new Map(prev);
            for (const row of rows) next.set(row.rowId, row);
            return next;
          });
          // a row the file no longer has is not asked for again and again
          if (lost.length > 0) setFailed((prev) => withFailed(prev, lost, 'not in the file'));
        },
        (e: unknown) => {
          for (const id of ids) asking.current.delete(id);
          setFailed((prev) => withFailed(prev, ids, e instanceof Error ? e.message : String(e)));
        },
      );
    };
    if (missing.length > 0) ask(missing);
    if (stale.length === 0) return;
    // a call per big row: each is drawn as it comes (a GPU profile's ranks, 0.1-0.3 s each)
    const timer = setTimeout(() => stale.forEach((id) => ask([id])), WINDOW_REST_MS);
    return () => clearTimeout(timer);
  }, [host, fileId, first, last, margin, rowIds, rowsById, failed, windowStart, windowEnd, pixels]);
  return { rows: rowsById, failed };
}

function withFailed(prev: Map<number, string>, ids: number[], why: string): Map<number, string> {
  const next = new Map(prev);
  for (const id of ids) next.set(id, why);
  return next;
}

export interface SelectionDetails {
  row: RowView | null;
  span: SpanDetails | null;
  sample: SampleDetails | null;
  error: string | null;
}

const NO_DETAILS: SelectionDetails = { row: null, span: null, sample: null, error: null };

/** The selected row, span (when an item is selected) and sample (when the format has them). */
export function useSpanDetails(
  file: FileSummary,
  rowId: number | null,
  index: number | null,
): SelectionDetails {
  const host = useHost();
  const [details, setDetails] = useState<SelectionDetails>(NO_DETAILS);
  useEffect(() => {
    let live = true;
    setDetails(NO_DETAILS);
    if (rowId === null) return;
    const fail = (e: unknown) =>
      live && setDetails((d) => ({ ...d, error: e instanceof Error ? e.message : String(e) }));
    host.api
      .getRows(file.fileId, [rowId])
      .then((rows) => live && setDetails((d) => ({ ...d, row: rows[0] ?? null })), fail);
    const spanRequest =
      index === null ? Promise.resolve(null) : host.api.getSpan(file.fileId, rowId, index);
    const sampleRequest = file.capabilities.samples
      ? host.api.getSample(file.fileId, rowId)
      : Promise.resolve(null);
    Promise.all([spanRequest, sampleRequest]).then(([span, sample]) => {
      if (live) setDetails((d) => ({ ...d, span, sample }));
    }, fail);
    return () => {
      live = false;
    };
  }, [host, file.fileId, file.capabilities.samples, rowId, index]);
  return details;
}

/**
 * Perf digests asked per host, file and streaming state, so the perf view fetched while the
 * user was on the timeline (usePerfPrefetch) shows at once. File ids are never reused (a reopen
 * makes a new one); the oldest entries go beyond a few files.
 */
const perfDigests = new WeakMap<TraceHost, Map<string, Promise<PerfDigest>>>();
const PERF_DIGESTS_KEPT = 8;

function perfDigestOf(host: TraceHost, fileId: string, streaming: boolean): Promise<PerfDigest> {
  let byFile = perfDigests.get(host);
  if (!byFile) perfDigests.set(host, (byFile = new Map()));
  const key = `${fileId}:${streaming}`;
  let digest = byFile.get(key);
  if (!digest) {
    digest = host.api.getPerf(fileId);
    byFile.set(key, digest);
    // a failed ask is asked again next time
    digest.catch(() => byFile.get(key) === digest && byFile.delete(key));
    while (byFile.size > PERF_DIGESTS_KEPT) byFile.delete(byFile.keys().next().value!);
  }
  return digest;
}

/**
 * Asks for a whole file's perf digest (and, with `groups`, the groups view's first page) once
 * the page is idle, before their tabs are opened.
 */
export function usePerfPrefetch(file: FileSummary, available: boolean, groups = false): void {
  const host = useHost();
  const state = fileState(file);
  useEffect(() => {
    if (!available || file.streaming) return;
    const timer = setTimeout(() => {
      perfDigestOf(host, file.fileId, false).catch(() => undefined);
      if (groups) groupPageOf(host, file.fileId, state, FIRST_GROUP_PAGE).catch(() => undefined);
    }, PREFETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [host, file.fileId, file.streaming, state, available, groups]);
}

/** After the rows' first calls: the timeline's order and page are asked first. */
const PREFETCH_DELAY_MS = 300;

/** Groups per page of the groups view: more than a screen, a small answer. */
export const GROUPS_PER_PAGE = 100;

/** The groups view's first page as it opens: by group, every group. */
const FIRST_GROUP_PAGE: GroupQuery = {
  sort: 'group',
  filter: 'all',
  offset: 0,
  limit: GROUPS_PER_PAGE,
};

/** First pages of the groups view per host, file and its rows so far; the oldest go first. */
const firstGroupPages = new WeakMap<TraceHost, Map<string, Promise<GroupPage>>>();

/** What a file's groups depend on as the renderer sees it: the rows read so far, and whether whole. */
export function fileState(file: FileSummary): string {
  return `${file.rows}:${file.streaming ?? false}`;
}

/**
 * A page of a file's groups. The view's first page is kept per file and state (prefetched
 * while the user is elsewhere, usePerfPrefetch), so opening the groups tab needs no call.
 */
export function groupPageOf(
  host: TraceHost,
  fileId: string,
  state: string,
  query: GroupQuery,
): Promise<GroupPage> {
  const first =
    query.offset === 0 &&
    query.limit === GROUPS_PER_PAGE &&
    query.sort === FIRST_GROUP_PAGE.sort &&
    query.filter === FIRST_GROUP_PAGE.filter &&
    !query.reverse &&
    !query.rowFigure;
  if (!first) return host.api.getPerfGroups(fileId, query);
  let byFile = firstGroupPages.get(host);
  if (!byFile) firstGroupPages.set(host, (byFile = new Map()));
  const key = `${fileId}:${state}`;
  let page = byFile.get(key);
  if (!page) {
    page = host.api.getPerfGroups(fileId, query);
    byFile.set(key, page);
    const kept = byFile;
    page.catch(() => kept.get(key) === page && kept.delete(key));
    while (kept.size > PERF_DIGESTS_KEPT) kept.delete(kept.keys().next().value!);
  }
  return page;
}

/** A file's perf digest; a file shown while it is read (`streaming`) asks again once it is whole. */
export function usePerf(
  fileId: string,
  streaming?: boolean,
): { perf: PerfDigest | null; error: string | null } {
  const host = useHost();
  const [state, setState] = useState<{ perf: PerfDigest | null; error: string | null }>({
    perf: null,
    error: null,
  });
  useEffect(() => {
    let live = true;
    perfDigestOf(host, fileId, streaming ?? false).then(
      (perf) => live && setState({ perf, error: null }),
      (e: unknown) =>
        live && setState({ perf: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [host, fileId, streaming]);
  return state;
}
