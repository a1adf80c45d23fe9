import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import { grownColumn } from '../../model/grown-column';
import type { PyValue } from '../../model/py-value';
import type { WithBytes } from '../../model/sample-facts';
import { PickleReplay, type PickleItemAt } from '../pickle/pickle-replay';
import { readPickleItem } from '../pickle/read-pickle-item';

/** start, end, memo size per sample */
const STRIDE = 3;

/**
 * Where each sample of a dump lies in its file, and the memo values samples read from before
 * they start (PickleReplay): enough to read one sample again alone when a user opens it, so
 * that an open dump need not keep its samples (100k of them were ~70 MB of heap; this is 24
 * bytes a sample outside the heap, plus the few interned keys and names).
 */
export class SamplesInFile {
  readonly replay = new PickleReplay();
  private places = new Float64Array(0);

  /**
   * `fileSize` and `modifiedMs`: the file's size and modification time when it was opened (a
   * file of another size, or modified since, changed since)
   */
  constructor(
    private readonly fileSize: number,
    private readonly modifiedMs?: number,
  ) {}

  /** sample `index` lies at `at` */
  note(index: number, at: PickleItemAt): void {
    const from = index * STRIDE;
    if (from + STRIDE > this.places.length) {
      const known = this.places.length;
      this.places = grownColumn(this.places, Math.max(1024 * STRIDE, from + STRIDE), 2);
      this.places.fill(NaN, known);
    }
    this.places[from] = at.start;
    this.places[from + 1] = at.end;
    this.places[from + 2] = at.memoSize;
  }

  /** Where samples `from` on lie (start, end, memo size each; NaN: unknown): see `noteAll`. */
  placesFrom(from: number): Float64Array {
    return this.places.slice(Math.min(from * STRIDE, this.places.length));
  }

  /** The places `placesFrom(from)` gave (another thread's samples). */
  noteAll(from: number, places: Float64Array): void {
    for (let k = 0; k + STRIDE <= places.length; k += STRIDE) {
      if (Number.isNaN(places[k])) continue;
      this.note(from + k / STRIDE, {
        start: places[k],
        end: places[k + 1],
        memoSize: places[k + 2],
      });
    }
  }

  /** the dump is read again from its start: no place is known */
  clear(): void {
    this.places = new Float64Array(0);
  }

  has(index: number): boolean {
    const from = index * STRIDE;
    return from + STRIDE <= this.places.length && !Number.isNaN(this.places[from]);
  }

  /** Sample `index` read again from the file's bytes, or undefined when its place is unknown. */
  read(index: number, withBytes: WithBytes): PyValue | undefined {
    if (!this.has(index)) return undefined;
    const from = index * STRIDE;
    const at: PickleItemAt = {
      start: this.places[from],
      end: this.places[from + 1],
      memoSize: this.places[from + 2],
    };
    return withBytes((bytes) => {
      this.checkUnchanged(bytes, index, at.start);
      try {
        return readPickleItem(bytes, at, this.replay);
      } catch (error) {
        // rewritten in place: its bytes no longer read as a sample
        throw changed(
          bytes,
          index,
          at.start,
          error instanceof Error ? error.message : String(error),
        );
      }
    });
  }

  /**
   * Sample `index`, kept in memory, is about to be shown: its token lists are byte ranges of
   * the file, so a file that changed since it was opened says so now rather than give another
   * sample's tokens later.
   */
  checkKept(index: number, withBytes: WithBytes): void {
    withBytes((bytes) => this.checkUnchanged(bytes, index, 0));
  }

  /** `bytes` are the file as it was opened: the same size and modification time. */
  private checkUnchanged(bytes: ByteSource, index: number, offset: number): void {
    if (bytes.size !== this.fileSize)
      throw changed(bytes, index, offset, `${this.fileSize} bytes then, ${bytes.size} now`);
    // rewritten in place at the same size (another dump of the same run): its bytes may well
    // read as a sample, another one
    if (
      this.modifiedMs !== undefined &&
      bytes.modifiedMs !== undefined &&
      bytes.modifiedMs !== this.modifiedMs
    )
      throw changed(
        bytes,
        index,
        offset,
        `modified at ${new Date(bytes.modifiedMs).toISOString()}`,
      );
  }
}

function changed(bytes: ByteSource, index: number, offset: number, why: string): FormatError {
  return new FormatError(
    'slime/sample-changed',
    `sample ${index} of ${bytes.name} could not be read again: the file changed since it was opened (${why})`,
    offset,
  );
}
