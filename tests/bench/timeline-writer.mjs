// A long trainer communication timeline for one rank, from the run fixture's schema-2 file:
// its records repeated `copies` times, each copy shifted by the fixture's span, with the rank
// and sequence ids rewritten as slime's writer would number them.
import { readFileSync, writeFileSync } from 'node:fs';

export function writeTimelineFile(path, fixture, rank, copies) {
  const records = readFileSync(fixture, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const first = BigInt(records[0].api_launch_timestamp_ns);
  const last = BigInt(records[records.length - 1].completion_timestamp_ns);
  const period = last - first + 1_000_000_000n;
  const out = [];
  let sequence = 0;
  for (let copy = 0; copy < copies; copy++) {
    const shift = period * BigInt(copy);
    for (const record of records) {
      const r = { ...record, rank, trainer_rank: rank, local_rank: rank % 8, sequence_id: sequence++ };
      // epoch ns exceed 2^53: shift them as decimal strings, then print them as bare numbers
      const text = JSON.stringify(r).replace(/"(\w+_timestamp_ns)":(\d+)/g, (_m, key, ns) => {
        const exact = BigInt(record[key] === null ? 0 : ns) + shift;
        return `"${key}":${exact}`;
      });
      out.push(text);
    }
  }
  writeFileSync(path, `${out.join('\n')}\n`);
  return out.length;
}
