import type { FileSummary, SqlAnswer, SqlCell, SqlRequest } from '../core/api/trace-api';
import { NotFoundError } from '../core/api/call-errors';
import { buildRunJoins } from '../core/run/build-run-joins';
import type { OpenedFile } from '../ingest/ingest-connection';
import type { SqlHost } from '../sql/sql-protocol';

/** What the scopes need of an open file: its summary and its worker. */
export interface SqlScopeFile {
  summary: FileSummary;
  opened: Pick<OpenedFile, 'call'>;
}

interface Scope {
  fileIds: string[];
  host: SqlHost;
  ready: Promise<void>;
}

/** queries whose scope is remembered for paging and cancel */
const KEPT_QUERIES = 64;

/**
 * The SQL engines of the Query views: one per set of files asked together (a file, a compare
 * pair, a run's files), made on its first query: each file's worker makes its tables from its
 * store (core/sql/build-sql-tables.ts), the engine's own thread loads them and locks itself.
 * A scope ends when one of its files closes.
 */
export class SqlScopes {
  private readonly scopes = new Map<string, Scope>();
  private readonly queries = new Map<string, Scope>();

  constructor(
    private readonly makeHost: () => SqlHost,
    private readonly fileOf: (fileId: string) => SqlScopeFile,
  ) {}

  async run(request: SqlRequest): Promise<SqlAnswer> {
    const scope = this.scopeOf(request.fileIds);
    this.queries.set(request.queryId, scope);
    while (this.queries.size > KEPT_QUERIES) this.queries.delete(this.queries.keys().next().value!);
    await scope.ready;
    return scope.host.query(request.queryId, request.sql);
  }

  async rows(queryId: string, offset: number, count: number): Promise<SqlCell[][]> {
    const scope = this.queries.get(queryId);
    if (scope === undefined) throw new NotFoundError(`no query ${queryId}`);
    return scope.host.rows(queryId, offset, count);
  }

  cancel(queryId: string): void {
    this.queries.get(queryId)?.host.interrupt();
  }

  /** Ends every scope holding the file (its tables would outlive it). */
  forgetFile(fileId: string): void {
    for (const [key, scope] of this.scopes) {
      if (!scope.fileIds.includes(fileId)) continue;
      scope.host.close();
      this.scopes.delete(key);
      for (const [queryId, kept] of this.queries) if (kept === scope) this.queries.delete(queryId);
    }
  }

  private scopeOf(fileIds: string[]): Scope {
    const key = JSON.stringify(fileIds);
    const kept = this.scopes.get(key);
    if (kept !== undefined) return kept;
    const files = fileIds.map((id) => this.fileOf(id));
    const host = this.makeHost();
    const scope: Scope = { fileIds, host, ready: this.load(host, files) };
    this.scopes.set(key, scope);
    // a scope that failed to load is made again on the next query
    scope.ready.catch(() => {
      if (this.scopes.get(key) === scope) this.scopes.delete(key);
      host.close();
    });
    return scope;
  }

  private async load(host: SqlHost, files: SqlScopeFile[]): Promise<void> {
    const starts = files
      .map((f) => f.summary.globalStartSec)
      .filter((s): s is number => s !== null && Number.isFinite(s));
    const originSec = starts.length > 0 ? Math.min(...starts) : 0;
    const [tables, digests] = await Promise.all([
      Promise.all(files.map((f, k) => f.opened.call('sqlTables', k, originSec, f.summary.path))),
      Promise.all(files.map((f) => f.opened.call('runDigest'))),
    ]);
    await host.load(tables, buildRunJoins(digests));
  }
}
