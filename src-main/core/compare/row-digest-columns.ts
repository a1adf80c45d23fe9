import type { Row } from '../model/row';
import { textColumnSteps, textsOf, type TextColumn } from './text-column';
import { finishSteps } from '../store/kept-steps';

export type { TextColumn };

/** What comparing needs of one row: its fields, and the key that matches carried-over prompts. */
export interface RowDigest {
  row_id: number;
  sample_index: Row['sample_index'];
  status: string | null;
  reward: number | null;
  /** the sample's `response_length` (slime's field), null when it has none */
  response_length: number | null;
  duration: number;
  /** group and prompt text; null when the sample has no prompt */
  promptKey: string | null;
}

/**
 * Every row's digest as columns, one entry per row in the file's order: what crosses from a
 * file's worker to main when two files are compared. 100k rows as objects took a structured
 * clone of 100k seven-field objects (hundreds of milliseconds); as columns the numbers cross as
 * bytes and only the strings one by one.
 */
export interface RowDigestColumns {
  rowIds: Int32Array;
  /** String(sample_index) when it is a number or a string (what index matching compares) */
  indexKeys: TextColumn;
  /** each row's status as a position in statusNames */
  statusCodes: Int32Array;
  statusNames: (string | null)[];
  /** a row without a reward (response length) has 0 in hasReward (hasResponseLength) */
  rewards: Float64Array;
  hasReward: Uint8Array;
  responseLengths: Float64Array;
  hasResponseLength: Uint8Array;
  durations: Float64Array;
  promptKeys: TextColumn;
}

export function rowDigestColumns(rows: RowDigest[]): RowDigestColumns {
  return finishSteps(rowDigestColumnSteps(rows));
}

/**
 * rowDigestColumns with a yield after each `rowsPerStep` rows of the numbers and of each text
 * column (textColumnSteps): a worker's warm-up takes one step per idle turn, and a call asked
 * meanwhile waits for at most one.
 */
export function* rowDigestColumnSteps(
  rows: RowDigest[],
  rowsPerStep = Infinity,
): Generator<void, RowDigestColumns, void> {
  const n = rows.length;
  const columns: Omit<RowDigestColumns, 'indexKeys' | 'promptKeys'> = {
    rowIds: new Int32Array(n),
    statusCodes: new Int32Array(n),
    statusNames: [],
    rewards: new Float64Array(n),
    hasReward: new Uint8Array(n),
    responseLengths: new Float64Array(n),
    hasResponseLength: new Uint8Array(n),
    durations: new Float64Array(n),
  };
  const codes = new Map<string | null, number>();
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    columns.rowIds[i] = row.row_id;
    let code = codes.get(row.status);
    if (code === undefined) {
      code = columns.statusNames.push(row.status) - 1;
      codes.set(row.status, code);
    }
    columns.statusCodes[i] = code;
    if (row.reward !== null) {
      columns.rewards[i] = row.reward;
      columns.hasReward[i] = 1;
    }
    if (row.response_length !== null) {
      columns.responseLengths[i] = row.response_length;
      columns.hasResponseLength[i] = 1;
    }
    columns.durations[i] = row.duration;
    if ((i + 1) % rowsPerStep === 0) yield;
  }
  yield;
  const indexKeys = yield* textColumnSteps(
    rows.map((row) => indexKey(row.sample_index)),
    rowsPerStep,
  );
  yield;
  const promptKeys = yield* textColumnSteps(
    rows.map((row) => row.promptKey),
    rowsPerStep,
  );
  return { ...columns, indexKeys, promptKeys };
}

/** An index as the key it matches by: its text (3 and '3' are one index); other kinds none. */
function indexKey(index: Row['sample_index']): string | null {
  return typeof index === 'number' || typeof index === 'string' ? String(index) : null;
}

/**
 * The rows back as objects, for tests; a sample index comes back as its key's text (the
 * number 3 as '3'), and as null when it was neither a number nor a string.
 */
export function rowDigestsOf(columns: RowDigestColumns): RowDigest[] {
  const indexKeys = textsOf(columns.indexKeys);
  const promptKeys = textsOf(columns.promptKeys);
  return Array.from(columns.rowIds, (row_id, i) => ({
    row_id,
    sample_index: indexKeys[i],
    status: columns.statusNames[columns.statusCodes[i]],
    reward: columns.hasReward[i] === 1 ? columns.rewards[i] : null,
    response_length: columns.hasResponseLength[i] === 1 ? columns.responseLengths[i] : null,
    duration: columns.durations[i],
    promptKey: promptKeys[i],
  }));
}
