// Baseline for the request-metrics bench: JSON.parse of every line of the named files, read in
// chunks, nothing else kept (the count of records printed).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

let records = 0;
for (const path of process.argv.slice(2)) {
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    if (JSON.parse(line).id !== undefined) records++;
  }
}
console.log(records);
