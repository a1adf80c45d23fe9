import type { RowFacts, RowOrder, RowQuery, TraceApi } from '../../src-main/core/api/trace-api';

/**
 * A row order joined with its rows' facts: per shown row, in display order, its lanes, start
 * and end. What the timeline lays out and the cursor counts, made in the renderer from the
 * order's ids and the facts asked once per store (RowFacts), so a sort sends ids only.
 */
export interface ShownOrder extends RowOrder {
  laneCounts: Int32Array;
  startSec: Float64Array;
  endSec: Float64Array;
}

/** Per facts, row id -> index in the facts' arrays: a dense array when ids are small, else a Map. */
const positions = new WeakMap<RowFacts, (rowId: number) => number>();

function positionOf(facts: RowFacts): (rowId: number) => number {
  let find = positions.get(facts);
  if (find) return find;
  const ids = facts.rowIds;
  if (ids === null) {
    const n = facts.startSec.length;
    find = (rowId) => (rowId >= 0 && rowId < n ? rowId : -1);
    positions.set(facts, find);
    return find;
  }
  let maxId = -1;
  let minId = 0;
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] > maxId) maxId = ids[i];
    if (ids[i] < minId) minId = ids[i];
  }
  // row ids are usually 0..n-1 (a dump's sample positions): an array lookup, not a hash
  if (minId >= 0 && maxId < 4 * ids.length + 1024) {
    const dense = new Int32Array(maxId + 1).fill(-1);
    for (let i = 0; i < ids.length; i++) dense[ids[i]] = i;
    find = (rowId) => (rowId >= 0 && rowId <= maxId ? dense[rowId] : -1);
  } else {
    const byId = new Map<number, number>();
    for (let i = 0; i < ids.length; i++) byId.set(ids[i], i);
    find = (rowId) => byId.get(rowId) ?? -1;
  }
  positions.set(facts, find);
  return find;
}

/** The order's rows with their facts; both must come from the same store version. */
export function shownOrder(order: RowOrder, facts: RowFacts): ShownOrder {
  if (order.storeVersion !== facts.storeVersion) {
    throw new Error(
      `row order of store ${order.storeVersion} joined with facts of store ${facts.storeVersion}`,
    );
  }
  const find = positionOf(facts);
  const n = order.rowIds.length;
  const laneCounts = new Int32Array(n);
  const startSec = new Float64Array(n);
  const endSec = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const at = find(order.rowIds[k]);
    if (at < 0) throw new Error(`row ${order.rowIds[k]} is not in store ${facts.storeVersion}`);
    laneCounts[k] = facts.laneCounts[at];
    startSec[k] = facts.startSec[at];
    endSec[k] = facts.endSec[at];
  }
  return { ...order, laneCounts, startSec, endSec };
}

/** Per API client, facts by `fileId:storeVersion` (asked or answered); the oldest go first. */
const factsAsked = new WeakMap<TraceApi, Map<string, Promise<RowFacts>>>();
/**
 * Per API client, facts asked beside an order before their store's version was known
 * (queryShownRows), by file id, until they answer: an order of their version takes them.
 */
const factsAskedAhead = new WeakMap<TraceApi, Map<string, Promise<RowFacts>>>();
/** Per API client and file id, the row count of the newest facts answered. */
const factsRows = new WeakMap<TraceApi, Map<string, number>>();
const FACTS_KEPT = 8;

function keptFacts(api: TraceApi): Map<string, Promise<RowFacts>> {
  let byKey = factsAsked.get(api);
  if (!byKey) factsAsked.set(api, (byKey = new Map()));
  return byKey;
}

/** Keeps `facts` under `fileId:version`, and their row count as the file's newest. */
function keep(api: TraceApi, fileId: string, version: number, facts: Promise<RowFacts>): void {
  const kept = keptFacts(api);
  kept.set(`${fileId}:${version}`, facts);
  while (kept.size > FACTS_KEPT) kept.delete(kept.keys().next().value!);
}

function noteRows(api: TraceApi, fileId: string, answer: RowFacts): void {
  let rows = factsRows.get(api);
  if (!rows) factsRows.set(api, (rows = new Map()));
  rows.set(fileId, answer.startSec.length);
}

/**
 * The facts of a file's store `version`, asked once and kept: a sort or filter of the same
 * store needs none. What comes back may be a newer store (the file grew meanwhile).
 */
export function rowFactsOf(api: TraceApi, fileId: string, version: number): Promise<RowFacts> {
  const kept = keptFacts(api);
  const key = `${fileId}:${version}`;
  const facts = kept.get(key);
  if (facts) return facts;
  const ahead = factsAskedAhead.get(api)?.get(fileId);
  // facts asked beside this order: this version's when they answer with it, else asked again
  const asked = ahead
    ? ahead.then(
        (answer) => (answer.storeVersion === version ? answer : api.getRowFacts(fileId)),
        () => api.getRowFacts(fileId),
      )
    : api.getRowFacts(fileId);
  keep(api, fileId, version, asked);
  asked.then(
    (answer) => {
      noteRows(api, fileId, answer);
      if (answer.storeVersion === version) return;
      // a newer store answered: kept under its own version, asked again for this one
      kept.delete(key);
      keep(api, fileId, answer.storeVersion, Promise.resolve(answer));
    },
    () => kept.delete(key),
  );
  return asked;
}

/**
 * Asks the file's facts now, before the order that names their store's version has answered:
 * the first rows of a file (or rows it grew by) then wait for one round trip, not two. While
 * a file is read its worker answers calls only between reading steps, and each call waited
 * for one: 0.1-0.35 s a call at 100k samples on this busy machine (`npm run bench firstrows`).
 */
function askFactsAhead(api: TraceApi, fileId: string): void {
  let ahead = factsAskedAhead.get(api);
  if (!ahead) factsAskedAhead.set(api, (ahead = new Map()));
  if (ahead.has(fileId)) return;
  const asked = api.getRowFacts(fileId);
  const byFile = ahead;
  byFile.set(fileId, asked);
  asked.then(
    (answer) => {
      noteRows(api, fileId, answer);
      keep(api, fileId, answer.storeVersion, asked);
    },
    () => undefined,
  );
  // let go once answered and taken (an order asked after that finds them kept by version)
  void asked.finally(() => {
    if (byFile.get(fileId) === asked) byFile.delete(fileId);
  });
}

/** A store rebuilt this many times while one order is asked: something keeps replacing it. */
const MAX_STORE_CHANGES = 20;

/**
 * The rows `query` shows, joined with their facts. A file read while shown may get a new store
 * between the order and its facts: the order is then asked again of the newer store. `rows`:
 * how many rows the file has now, as its summary says; when the newest facts kept for it hold
 * another count (none yet, or it grew since), its facts are asked beside the order.
 */
export async function queryShownRows(
  api: TraceApi,
  fileId: string,
  query: RowQuery,
  rows?: number,
): Promise<ShownOrder> {
  if (rows !== undefined && factsRows.get(api)?.get(fileId) !== rows) askFactsAhead(api, fileId);
  for (let changes = 0; changes < MAX_STORE_CHANGES; changes++) {
    const order = await api.queryRows(fileId, query);
    const facts = await rowFactsOf(api, fileId, order.storeVersion);
    if (facts.storeVersion === order.storeVersion) return shownOrder(order, facts);
  }
  throw new Error(`the rows of ${fileId} kept changing while they were asked`);
}
