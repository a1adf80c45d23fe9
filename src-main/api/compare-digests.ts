import type { CompareResult } from '../core/api/trace-api';
import type { CompareDigest } from '../core/compare/compare-traces';
import type { OpenedFile } from '../ingest/ingest-connection';

/** Digests kept at most: a few files' worth (about 5 MB each at 100k rows). */
const KEPT_DIGESTS = 4;

/**
 * What main keeps for comparing open files. A file's compare digest crosses from its worker
 * to main in tens of milliseconds at 100k rows (most of a compare's time), and a file never
 * changes once open: main keeps the digests it was given (the few latest), and asks ahead
 * for the two files a user is likely to compare next, once their workers have warmed them.
 * The last comparison is kept whole: the compare view asks again as it is shown again.
 */
export class CompareDigests {
  /** by file id, least recently used first */
  private readonly digests = new Map<string, Promise<CompareDigest>>();
  private last: { a: string; b: string; result: CompareResult } | null = null;

  /** The file's digest: kept, or asked of its worker now. */
  of(fileId: string, file: OpenedFile): Promise<CompareDigest> {
    const kept = this.digests.get(fileId);
    if (kept === undefined) return this.ask(fileId, file, 'compareDigest');
    this.digests.delete(fileId);
    this.digests.set(fileId, kept);
    return kept;
  }

  /** Asks for the file's digest ahead of a compare, answered once its worker is idle. */
  askAhead(fileId: string, file: OpenedFile): void {
    if (!this.digests.has(fileId)) void this.ask(fileId, file, 'compareDigestWhenWarm');
  }

  /** The last comparison of a and b (in that order), if it is still kept. */
  result(a: string, b: string): CompareResult | null {
    return this.last !== null && this.last.a === a && this.last.b === b ? this.last.result : null;
  }

  keepResult(a: string, b: string, result: CompareResult): void {
    this.last = { a, b, result };
  }

  /** A closed file: nothing of it is kept. */
  forget(fileId: string): void {
    this.digests.delete(fileId);
    if (this.last !== null && (this.last.a === fileId || this.last.b === fileId)) this.last = null;
  }

  private ask(
    fileId: string,
    file: OpenedFile,
    method: 'compareDigest' | 'compareDigestWhenWarm',
  ): Promise<CompareDigest> {
    const digest = file.call(method);
    this.digests.set(fileId, digest);
    // a failed ask (the file closed meanwhile) is not kept; whoever awaits it sees the error
    digest.catch(() => {
      if (this.digests.get(fileId) === digest) this.digests.delete(fileId);
    });
    for (const id of this.digests.keys()) {
      if (this.digests.size <= KEPT_DIGESTS) break;
      this.digests.delete(id);
    }
    return digest;
  }
}
