import createSqlWorker from './sql-worker?nodeWorker';
import type { Worker } from 'node:worker_threads';
import type { SqlAnswer, SqlCell } from '../core/api/trace-api';
import type { SqlHost, SqlWorkerAnswer, SqlWorkerRequest } from './sql-protocol';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** A scope's SQL engine on a worker thread of its own: never main's thread. */
export function sqlInWorker(): SqlHost {
  return sqlOverWorker(createSqlWorker({}));
}

/** The host over a started SQL worker (sql-worker.ts). */
export function sqlOverWorker(worker: Worker): SqlHost {
  let nextId = 0;
  const pending = new Map<number, Pending>();
  worker.on('message', (answer: SqlWorkerAnswer) => {
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    if ('error' in answer) waiting?.reject(new Error(answer.error));
    else waiting?.resolve(answer.result);
  });
  const failAll = (error: Error) => {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  worker.on('error', failAll);
  worker.on('exit', () => failAll(new Error('the SQL engine ended')));
  type Asked = Extract<SqlWorkerRequest, { id: number }>;
  type Ask = Asked extends infer R ? (R extends Asked ? Omit<R, 'id'> : never) : never;
  const ask = <T>(request: Ask): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  return {
    load: (files, joins) => ask<void>({ type: 'load', files, joins }),
    query: (queryId, sql) => ask<SqlAnswer>({ type: 'query', queryId, sql }),
    rows: (queryId, offset, count) => ask<SqlCell[][]>({ type: 'rows', queryId, offset, count }),
    interrupt: () => worker.postMessage({ type: 'interrupt' } satisfies SqlWorkerRequest),
    close: () => void worker.terminate(),
  };
}
