// The baseline for several traces opened together: JSON.parse of each whole file, one after
// another in one process (what a naive reader of a folder does); prints the event counts.
import { readFileSync } from 'node:fs';
let events = 0;
for (const path of process.argv.slice(2)) {
  const value = JSON.parse(readFileSync(path, 'utf8'));
  events += Array.isArray(value) ? value.length : value.traceEvents.length;
}
console.log(events);
