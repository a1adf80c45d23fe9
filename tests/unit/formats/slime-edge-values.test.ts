import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRowsJson } from '../../../src-main/cli/rows-output';
import { jsonText } from '../../../src-main/core/model/json-text';
import { SLIME } from '../../support/fixtures';

// edge_values.pt holds the values JSON cannot hold as they are (fixture README): an int
// `source`, bytes attributes, a tuple, a bool PD duration, an int beyond 2^53. The rows we
// print must equal slime's own viewer output for each, by Python's rules.

/** JSON parsed with every integer literal of 16+ digits kept as its digits (JSON.parse rounds them) */
const parseExact = (text: string): unknown =>
  JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"int:$2"'));

describe('edge_values.pt: rows equal slime’s viewer output for values JSON cannot hold', () => {
  const path = resolve(SLIME, 'edge_values.pt');
  const ours = jsonText(buildRowsJson([path]));
  const slime = readFileSync(resolve(SLIME, 'edge_values.pt.expected.json'), 'utf8');

  it('every row, item and attribute', () => {
    const a = parseExact(ours) as { rows: unknown[] };
    const b = parseExact(slime) as { rows: unknown[] };
    expect(a.rows).toEqual(b.rows);
  });

  it('an int beyond 2^53 is printed exactly, as slime’s JSON has it', () => {
    const digits = slime.match(/"big_int": (\d+)/)![1];
    expect(BigInt(digits)).toBeGreaterThan(2n ** 53n);
    expect(ours).toContain(`"big_int":${digits}`);
  });
});
