import type { CompareResult, FileSummary } from '../core/api/trace-api';
import type { CompareDigest } from '../core/compare/compare-traces';
import type { OpenedFile } from '../ingest/ingest-connection';

/** Digests kept at most: a few files' worth (about 5 MB each at 100k rows). */
const KEPT_DIGESTS = 4;

/** One side of a compare made ahead: the file as main lists it, and its worker. */
export interface AheadSide {
  fileId: string;
  summary: FileSummary;
  file: OpenedFile;
}

/**
 * What main keeps for comparing open files. A file's compare digest crosses from its worker
 * to main in tens of milliseconds at 100k rows, and matching 100k samples in code the engine
 * has not yet optimized takes about as long again; a file never changes once open. So main
 * keeps the digests it was given (the few latest), and for the pair a user is likely to
 * compare next (a file just opened and the one opened before it) asks ahead, once both
 * workers are idle: the new file's digest, then the older file's worker compares itself with
 * it. The first compare of that pair is then a kept answer; the last comparison is kept too
 * (the compare view asks again as it is shown again).
 */
export class CompareDigests {
  /** by file id, least recently used first */
  private readonly digests = new Map<string, Promise<CompareDigest>>();
  private last: { a: string; b: string; result: Promise<CompareResult> } | null = null;

  /** The file's digest: kept, or asked of its worker now. */
  of(fileId: string, file: OpenedFile): Promise<CompareDigest> {
    const kept = this.digests.get(fileId);
    if (kept === undefined) return this.ask(fileId, file, 'compareDigest');
    this.digests.delete(fileId);
    this.digests.set(fileId, kept);
    return kept;
  }

  /**
   * The comparison of a and b (in that order) made ahead or last, if it is still kept: null
   * when there is none or it failed (the caller compares anew).
   */
  async result(a: string, b: string): Promise<CompareResult | null> {
    const last = this.last;
    if (last === null || last.a !== a || last.b !== b) return null;
    return last.result.catch(() => null);
  }

  keepResult(a: string, b: string, result: CompareResult): void {
    this.last = { a, b, result: Promise.resolve(result) };
  }

  /**
   * Compares `older` with `newer` ahead (see above): the newer file's digest once its worker
   * is warm, then the older file's worker compares itself with it.
   */
  compareAhead(older: AheadSide, newer: AheadSide): void {
    const digest =
      this.digests.get(newer.fileId) ?? this.ask(newer.fileId, newer.file, 'compareDigestWhenWarm');
    const result = digest.then((d) =>
      older.file.call(
        'compareWith',
        { fileId: older.fileId, summary: older.summary },
        { fileId: newer.fileId, summary: newer.summary, digest: d },
      ),
    );
    // a failed compare ahead is only not kept (a compare then asks again)
    result.catch(() => {
      if (this.last?.result === result) this.last = null;
    });
    this.last = { a: older.fileId, b: newer.fileId, result };
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
