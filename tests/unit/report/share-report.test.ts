import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inflateSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import { validateCall } from '../../../src-main/api/validate-call';
import { BadCallError } from '../../../src-main/core/api/call-errors';
import type { ExportedFile } from '../../../src-main/core/api/trace-api';
import { decodeAnswer } from '../../../src-main/core/api/typed-json';
import type { ReportSnapshot } from '../../../src-main/core/api/report-snapshot';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { startServeMode, type ServeHandle } from '../../../src-main/serve/serve-mode';
import { serveCaller } from '../../support/serve-call';
import { SLIME } from '../../support/fixtures';
import { ingestInThread } from '../../support/in-thread-ingest';

// The Share menu's call (File > Share report… and serve mode's Share ▾): exportReport, checked
// like every call, answered by the real service over serve mode's HTTP.
describe('exportReport arguments', () => {
  it('takes one file, or two with compare, and whether content goes in', () => {
    const ok = { fileIds: ['a', 'b'], compare: true, withContent: false };
    expect(validateCall('exportReport', [ok]).args).toEqual([ok]);
    for (const bad of [
      { fileIds: ['a'], compare: true, withContent: false },
      { fileIds: ['a', 'b'], compare: false, withContent: false },
      { fileIds: ['a', 'a'], compare: true, withContent: false },
      { fileIds: ['a'], compare: false, withContent: 'yes' },
      { fileIds: [], compare: false, withContent: false },
    ]) {
      expect(() => validateCall('exportReport', [bad])).toThrow(BadCallError);
    }
  });
});

describe('exportReport over HTTP on the real service', () => {
  const service = new TraceService(ingestInThread(FORMATS));
  let handle: ServeHandle;
  let port: number;
  const ids: string[] = [];

  beforeAll(async () => {
    for (const name of ['rollout_7.pt', 'rollout_8.pt']) {
      const path = resolve(SLIME, name);
      const result = await service.open({ openId: name, sources: [{ kind: 'path', path }] });
      if (!result.ok) throw new Error(result.error.message);
      ids.push(result.file.fileId);
    }
    const rendererDir = mkdtempSync(join(tmpdir(), 'te-share-'));
    handle = await startServeMode({ api: service, rendererDir, token: 'tok' });
    port = Number(new URL(handle.url).port);
  });
  afterAll(() => handle.close());
  const call = serveCaller(() => port);

  it('answers the compare as one HTML file: its snapshot with the service’s own compare', async () => {
    const answer = await call('exportReport', [
      { fileIds: ids, compare: true, withContent: false },
    ]);
    expect(answer.status).toBe(200);
    const file = answer.body.result as ExportedFile;
    expect(file.fileName).toBe('rollout_7.pt-vs-rollout_8.pt.report.html');
    expect(file.mime).toBe('text/html');
    const html = Buffer.from(file.bytesBase64, 'base64').toString('utf8');
    const data = /id="report-data" data-type="([^"]+)">([^<]*)</.exec(html)!;
    const snapshot = decodeAnswer(
      data[1],
      inflateSync(Buffer.from(data[2], 'base64')).slice().buffer,
    ) as ReportSnapshot;
    expect(snapshot.withContent).toBe(false);
    expect(snapshot.files.map((f) => [f.summary.fileId, f.summary.path])).toEqual([
      [ids[0], null],
      [ids[1], null],
    ]);
    const result = snapshot.compare!.results[`${ids[0]}\n${ids[1]}`];
    expect(result.answer).toEqual((await service.compare(ids[0], ids[1])).answer);
    expect(html).toContain('id="report-details-1"');
  });
});
