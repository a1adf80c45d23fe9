import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import { validateCall } from '../../../src-main/api/validate-call';
import { BadCallError } from '../../../src-main/core/api/call-errors';
import type { SqlAnswer } from '../../../src-main/core/api/trace-api';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { startServeMode, type ServeHandle } from '../../../src-main/serve/serve-mode';
import { sqlInProcess } from '../../../src-main/sql/sql-in-process';
import type { SqlHost } from '../../../src-main/sql/sql-protocol';
import { serveCaller } from '../../support/serve-call';
import { SLIME } from '../../support/fixtures';
import { ingestInThread } from '../../support/in-thread-ingest';

// runSql, getSqlRows and cancelSql: argument checks shared by both transports, then the real
// service (files on the ingest session, tables made by each file's session) behind serve mode.

describe('argument checks', () => {
  const request = { queryId: 'q1', fileIds: ['a', 'b'], sql: 'SELECT 1' };
  it('runSql takes a query id, 1 to 64 distinct file ids and the text', () => {
    expect(validateCall('runSql', [request]).args).toEqual([request]);
    for (const bad of [
      { ...request, fileIds: [] },
      { ...request, fileIds: ['a', 'a'] },
      { ...request, fileIds: [7] },
      { ...request, sql: 12 },
      { ...request, sql: 'x'.repeat(1_000_001) },
      { ...request, queryId: '' },
    ])
      expect(() => validateCall('runSql', [bad])).toThrow(BadCallError);
  });
  it('getSqlRows pages at most 2000 rows', () => {
    expect(() => validateCall('getSqlRows', ['q1', 0, 2000])).not.toThrow();
    expect(() => validateCall('getSqlRows', ['q1', 0, 2001])).toThrow(BadCallError);
    expect(() => validateCall('getSqlRows', ['q1', -1, 10])).toThrow(BadCallError);
  });
});

describe('SQL over HTTP on the real service', () => {
  const hosts: SqlHost[] = [];
  const closed: SqlHost[] = [];
  const service = new TraceService(ingestInThread(FORMATS), null, null, null, () => {
    const host = sqlInProcess();
    hosts.push(host);
    return { ...host, close: () => (closed.push(host), host.close()) };
  });
  let handle: ServeHandle;
  let port: number;
  const fileIds: string[] = [];
  const open = async (name: string) => {
    const path = resolve(SLIME, name);
    const result = await service.open({ openId: name, sources: [{ kind: 'path', path }] });
    if (!result.ok) throw new Error(result.error.message);
    return result.file;
  };

  beforeAll(async () => {
    for (const name of ['rollout_7.pt', 'rollout_8.pt']) fileIds.push((await open(name)).fileId);
    handle = await startServeMode({
      api: service,
      rendererDir: mkdtempSync(join(tmpdir(), 'te-sql-')),
      token: 'tok',
    });
    port = Number(new URL(handle.url).port);
  });
  afterAll(() => handle.close());
  const call = serveCaller(() => port);
  const runSql = async (queryId: string, ids: string[], sql: string) =>
    (await call('runSql', [{ queryId, fileIds: ids, sql }])).body.result as SqlAnswer;

  it('answers over one file, then over a pair, each its own engine made once', async () => {
    const [a, b] = await service.listFiles();
    const one = await runSql('one', [a.fileId], 'SELECT count(*) FROM samples');
    expect('error' in one ? one.error : one.rows).toEqual([[a.samples]]);
    const again = await runSql('again', [a.fileId], 'SELECT count(*) FROM spans');
    expect('error' in again ? again.error : again.rows).toEqual([[a.spans]]);
    expect(hosts.length).toBe(1);
    const pair = await runSql(
      'pair',
      [a.fileId, b.fileId],
      'SELECT f.name, count(*) FROM samples s JOIN files f USING (file) GROUP BY 1 ORDER BY 1',
    );
    expect('error' in pair ? pair.error : pair.rows).toEqual([
      [a.name, a.samples],
      [b.name, b.samples],
    ]);
    expect(hosts.length).toBe(2);
  });

  it('pages a result kept in the engine, and says an unknown query is not found', async () => {
    const [a] = await service.listFiles();
    const answer = await runSql('paged', [a.fileId], 'SELECT row FROM spans ORDER BY row, item');
    if ('error' in answer) throw new Error(answer.error.message);
    expect(answer.rowCount).toBe(a.spans);
    const page = await call('getSqlRows', ['paged', 100, 5]);
    const sql = 'SELECT row FROM spans ORDER BY row, item LIMIT 5 OFFSET 100';
    const check = await runSql('check', [a.fileId], sql);
    expect(page.body.result).toEqual('error' in check ? check.error : check.rows);
    expect((await call('getSqlRows', ['nope', 0, 5])).status).toBe(404);
  });

  it("answers the engine's error as a value; an unknown file is not found", async () => {
    const [a] = await service.listFiles();
    const answer = await runSql('bad', [a.fileId], "SELECT * FROM read_text('/etc/passwd')");
    expect('error' in answer && answer.error.message).toMatch(/Permission Error/);
    expect(
      (await call('runSql', [{ queryId: 'x', fileIds: ['nope'], sql: 'SELECT 1' }])).status,
    ).toBe(404);
  });

  it('ends the engines of a file when it closes', async () => {
    await service.close(fileIds[1]);
    expect(closed.length).toBe(1);
    await service.close(fileIds[0]);
    expect(closed.length).toBe(2);
  });
});
