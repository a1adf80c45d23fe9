// Baseline for the OTLP bench: JSON.parse of every line of a file, read in chunks, nothing else.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

let spans = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const doc = JSON.parse(line);
  for (const rs of doc.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans += (ss.spans ?? []).length;
}
console.log(spans);
