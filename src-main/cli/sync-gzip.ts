import { constants, crc32, deflateRawSync } from 'node:zlib';

// gzip's header (RFC 1952): magic, deflate, no flags, no mtime, no extra flags, OS unix (as zlib)
const HEADER = Uint8Array.of(0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03);

/**
 * A gzip file made a chunk at a time, synchronously (zlib's streams are asynchronous: they
 * cannot drain inside a reader's synchronous loop). Each chunk is deflated by Node's zlib on
 * its own and ended by a sync flush, so the chunks' deflate blocks follow one another as one
 * stream of one gzip member. Measured on 200 MB of Perfetto JSON in 1 MiB chunks: 4.0 s,
 * against 12.5 s for fflate's streaming Gzip (level 6) and 5.8 s for gzipSync of the whole
 * text; 0.4% larger than the whole text deflated at once (each chunk starts without the
 * previous 32 KiB as its dictionary).
 */
export class SyncGzip {
  private crc = 0;
  private size = 0;

  constructor(private readonly out: (bytes: Uint8Array) => void) {
    out(HEADER);
  }

  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.crc = crc32(bytes, this.crc);
    this.size = (this.size + bytes.length) >>> 0;
    this.out(deflateRawSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }));
  }

  /** the last (empty, final) deflate block and the trailer: CRC-32 and size mod 2^32 */
  end(): void {
    this.out(deflateRawSync(new Uint8Array(0)));
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(this.crc >>> 0, 0);
    trailer.writeUInt32LE(this.size, 4);
    this.out(trailer);
  }
}
