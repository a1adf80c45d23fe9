import { closeSync, fstatSync, openSync, unlinkSync, writeSync } from 'node:fs';
import type { StreamedExportTarget } from '../core/export/stream-perfetto-export';
import { SyncGzip } from './sync-gzip';
import { writeError } from './write-chunks';

/**
 * An export's file ('-': stdout) written synchronously, for an export made inside a reader's
 * synchronous loop (streamPerfettoExport): each text chunk is on disk (or gzipped and on disk)
 * before the reader goes on, so nothing piles up in memory. Gzipped when asked (a name ending
 * in .gz). A failure is the same coded error as writeChunks' (export/no-folder, ...).
 */
export class SyncExportFile implements StreamedExportTarget {
  private fd: number | null = null;
  /** a regular file this export made or emptied, so removed after a failure (not /dev/full) */
  private removable = false;
  private gzip: SyncGzip | null = null;

  constructor(
    private readonly output: string,
    private readonly gzipped: boolean,
  ) {}

  /** opened (created, emptied) only now: a missing folder is said before anything is written */
  open(): void {
    if (this.output !== '-') {
      try {
        this.fd = openSync(this.output, 'w');
        this.removable = fstatSync(this.fd).isFile();
      } catch (error) {
        throw writeError(this.output, error);
      }
    }
    if (this.gzipped) this.gzip = new SyncGzip((bytes) => this.writeBytes(bytes));
  }

  write(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    if (this.gzip) this.gzip.push(bytes);
    else this.writeBytes(bytes);
  }

  /** the gzip trailer, then the file closed: the export is complete */
  close(): void {
    this.gzip?.end();
    this.gzip = null;
    this.closeFile();
  }

  /**
   * After a failure: the file is closed and removed, so no half export is left that looks like
   * a whole one (what went to stdout stays written). Its own failures are not reported: the
   * failure that led here is what the user is told.
   */
  discard(): void {
    this.gzip = null;
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      closeSync(fd);
    } catch {
      // the file is removed all the same
    }
    if (!this.removable) return;
    try {
      unlinkSync(this.output);
    } catch {
      // gone already, or its folder refuses: nothing more can be done about it
    }
  }

  private closeFile(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      closeSync(fd);
    } catch (error) {
      throw writeError(this.output, error);
    }
  }

  private writeBytes(bytes: Uint8Array): void {
    // stdout (a file, a pipe or a terminal) is written synchronously by Node on Linux and macOS
    if (this.fd === null) {
      process.stdout.write(bytes);
      return;
    }
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(this.fd, bytes, at);
    } catch (error) {
      throw writeError(this.output, error);
    }
  }
}
