// A large OTLP JSON-lines file from a fixture's shapes (ROLL's receiver, SGLang's collector):
// its lines repeated with fresh trace ids and shifted times until the span count is reached.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

export function writeOtlpFile(path, fixture, targetSpans) {
  const lines = readFileSync(fixture, 'utf8').split('\n').filter((l) => l.trim());
  // spans have a start time; events (timeUnixNano) and links do not
  const spansPerLine = lines.map((l) => (l.match(/"startTimeUnixNano"/g) ?? []).length);
  const fd = openSync(path, 'w');
  let spans = 0;
  let copy = 0;
  while (spans < targetSpans) {
    copy++;
    const suffix = copy.toString(16).padStart(8, '0');
    for (let i = 0; i < lines.length && spans < targetSpans; i++) {
      // new trace ids per copy; times shifted by an hour per copy
      const line = lines[i]
        .replace(/"traceId":"([0-9a-f]{24})[0-9a-f]{8}"/g, `"traceId":"$1${suffix}"`)
        .replace(/UnixNano":"(\d+)"/g, (_m, ns) => `UnixNano":"${BigInt(ns) + BigInt(copy) * 3600000000000n}"`);
      writeSync(fd, `${line}\n`);
      spans += spansPerLine[i];
    }
  }
  closeSync(fd);
  return spans;
}
