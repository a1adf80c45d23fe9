// A day of SGLang request metrics for the bench: `hours` hourly files
// sglang-request-metrics-YYYYMMDD_HH.log holding `requests` records in all, each a record of the
// fixture (run_extra) with its own rid and a prompt (input_ids in request_parameters) sized so
// that the files reach `bytes` together. Deterministic: the same arguments write the same files.
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export function writeRequestMetricsDay(dir, fixture, { hours = 24, requests = 200_000, bytes = 2e9 } = {}) {
  mkdirSync(dir, { recursive: true });
  const templates = readFileSync(fixture, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
  const promptIds = Math.max(16, Math.round(bytes / requests / 7.5)); // ~7.5 bytes an id, escaped
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const paths = [];
  let written = 0;
  for (let h = 0; h < hours; h++) {
    const path = join(dir, `sglang-request-metrics-20260825_${String(h).padStart(2, '0')}.log`);
    paths.push(path);
    const fd = openSync(path, 'w');
    const count = Math.floor(requests / hours) + (h < requests % hours ? 1 : 0);
    for (let k = 0; k < count; k++, written++) {
      const record = { ...templates[written % templates.length] };
      const rid = (written + 1).toString(16).padStart(32, '0');
      const params = JSON.parse(record.request_parameters);
      params.rid = rid;
      const n = promptIds + (next() % promptIds) - (promptIds >> 1);
      params.input_ids = Array.from({ length: n }, () => next() % 150_000);
      record.request_parameters = JSON.stringify(params);
      record.id = rid;
      record.prompt_tokens = n;
      record.request_finished_ts = 1787616000 + h * 3600 + (k * 3600) / count;
      record.request_received_ts = record.request_finished_ts - record.e2e_latency;
      writeSync(fd, JSON.stringify(record) + '\n');
    }
    closeSync(fd);
  }
  return paths;
}
