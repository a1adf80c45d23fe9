import { parentPort } from 'node:worker_threads';
import type { SqlWorkerAnswer, SqlWorkerRequest } from './sql-protocol';
import { SqlSession } from './sql-session';

// Thin worker entry: one SQL engine per scope (sql-session.ts). DuckDB runs queries on its own
// threads, so this thread's event loop stays free to take an interrupt while one runs.
if (parentPort) {
  const port = parentPort;
  const session = new SqlSession();
  const answer = (id: number, work: () => unknown) => {
    Promise.resolve()
      .then(work)
      .then(
        (result) => port.postMessage({ id, result: result ?? null } as SqlWorkerAnswer),
        (error: unknown) =>
          port.postMessage({
            id,
            error: error instanceof Error ? error.message : String(error),
          } as SqlWorkerAnswer),
      );
  };
  port.on('message', (request: SqlWorkerRequest) => {
    if (request.type === 'interrupt') session.interrupt();
    else if (request.type === 'load')
      answer(request.id, () => session.load(request.files, request.joins));
    else if (request.type === 'query')
      answer(request.id, () => session.query(request.queryId, request.sql));
    else answer(request.id, () => session.rows(request.queryId, request.offset, request.count));
  });
}
