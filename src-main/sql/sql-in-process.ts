import type { SqlHost } from './sql-protocol';
import { SqlSession } from './sql-session';

/** The same engine in this thread (tests; the CLI is headless and has nothing else to do). */
export function sqlInProcess(): SqlHost {
  const session = new SqlSession();
  return {
    load: (files, joins) => session.load(files, joins),
    query: (queryId, sql) => session.query(queryId, sql),
    rows: async (queryId, offset, count) => session.rows(queryId, offset, count),
    interrupt: () => session.interrupt(),
    close: () => session.close(),
  };
}
