import type { Row } from '../model/row';

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
  /** a number or string sample index (the only kinds index matching reads), else null */
  sampleIndexes: (number | string | null)[];
  /** each row's status as a position in statusNames */
  statusCodes: Int32Array;
  statusNames: (string | null)[];
  /** a row without a reward (response length) has 0 in hasReward (hasResponseLength) */
  rewards: Float64Array;
  hasReward: Uint8Array;
  responseLengths: Float64Array;
  hasResponseLength: Uint8Array;
  durations: Float64Array;
  promptKeys: (string | null)[];
}

export function rowDigestColumns(rows: RowDigest[]): RowDigestColumns {
  const n = rows.length;
  const columns: RowDigestColumns = {
    rowIds: new Int32Array(n),
    sampleIndexes: new Array<number | string | null>(n),
    statusCodes: new Int32Array(n),
    statusNames: [],
    rewards: new Float64Array(n),
    hasReward: new Uint8Array(n),
    responseLengths: new Float64Array(n),
    hasResponseLength: new Uint8Array(n),
    durations: new Float64Array(n),
    promptKeys: new Array<string | null>(n),
  };
  const codes = new Map<string | null, number>();
  rows.forEach((row, i) => {
    columns.rowIds[i] = row.row_id;
    const index = row.sample_index;
    columns.sampleIndexes[i] =
      typeof index === 'number' || typeof index === 'string' ? index : null;
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
    columns.promptKeys[i] = row.promptKey;
  });
  return columns;
}

/** The rows back as objects (tests, and anything that reads one row at a time). */
export function rowDigestsOf(columns: RowDigestColumns): RowDigest[] {
  return Array.from(columns.rowIds, (row_id, i) => ({
    row_id,
    sample_index: columns.sampleIndexes[i],
    status: columns.statusNames[columns.statusCodes[i]],
    reward: columns.hasReward[i] === 1 ? columns.rewards[i] : null,
    response_length: columns.hasResponseLength[i] === 1 ? columns.responseLengths[i] : null,
    duration: columns.durations[i],
    promptKey: columns.promptKeys[i],
  }));
}
