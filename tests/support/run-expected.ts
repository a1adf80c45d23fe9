import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The trainer-timeline records per operation of one file of the run fixture, as the fixture's
 * own checker counted them with json.loads (tests/fixtures/run/expected_counts.json,
 * `timeline.<file>.operations`): one source for the tests that pin them.
 */
export function expectedTimelineOperations(file: string): Record<string, number> {
  const expected = JSON.parse(
    readFileSync(resolve(__dirname, '../fixtures/run/expected_counts.json'), 'utf8'),
  ) as { timeline: Record<string, { operations: Record<string, number> }> };
  const counts = expected.timeline[file]?.operations;
  if (!counts) throw new Error(`expected_counts.json has no timeline entry for ${file}`);
  return counts;
}
