import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { ingestInThread } from '../../support/in-thread-ingest';
import { FIXTURES } from '../../support/fixtures';

// A trainer bar is labelled with its weight-sync bucket and version, read from the record
// itself: tests/fixtures/run/comm_timeline/slime-trainer-0.jsonl, line by line.
describe('trainer bars name their bucket', () => {
  it('every span with a bucket_id carries "bucket N · vM" from its record', async () => {
    const path = resolve(FIXTURES, 'run/comm_timeline/slime-trainer-0.jsonl');
    const records = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((r) => r.record_type === 'span');
    const service = new TraceService(ingestInThread(FORMATS));
    const opened = await service.open({ openId: 't', sources: [{ kind: 'path', path }] });
    if (!opened.ok) throw new Error('the trainer timeline did not open');
    const [row] = await service.getRows(opened.file.fileId, [0]);
    const spans = row.items.filter((i) => i.kind === 'span');
    expect(spans).toHaveLength(records.length);
    // the row's spans in time order are the records in launch order (the README: 66 a file)
    const byStart = [...records].sort(
      (a, b) => Number(a.api_launch_timestamp_ns) - Number(b.api_launch_timestamp_ns),
    );
    const hinted = spans
      .slice()
      .sort((a, b) => a.startSec - b.startSec)
      .map((s, k) => [s.name, s.hint ?? null, byStart[k]] as const);
    let buckets = 0;
    for (const [name, hint, record] of hinted) {
      expect(name).toBe(record.operation);
      if (typeof record.bucket_id === 'number') {
        buckets++;
        expect(hint).toBe(`bucket ${record.bucket_id} · v${String(record.weight_version)}`);
      } else expect(hint).toBeNull();
    }
    expect(buckets).toBeGreaterThan(10);
  });
});
