import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated */
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
const MAX_COMMENT = 0xffff;
const MAX_ENTRIES = 10_000_000;

export function sniffZip(head: Uint8Array): boolean {
  return (
    head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04
  );
}

/**
 * The central directory, which is where torch's archive keeps sizes and offsets: its local
 * headers carry flag 0x0808 and zero sizes. Reads only the tail and the directory itself.
 */
export function readZipDirectory(source: ByteSource): ZipEntry[] {
  const tailLength = Math.min(source.size, 22 + MAX_COMMENT + 20);
  const tailStart = source.size - tailLength;
  const tail = source.read(tailStart, tailLength);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) {
    throw new FormatError(
      'zip/eocd-not-found',
      'no ZIP central directory: the file is truncated or not a torch archive',
      source.size,
    );
  }
  let count = view.getUint16(eocd + 10, true);
  let cdSize = view.getUint32(eocd + 12, true);
  let cdOffset = view.getUint32(eocd + 16, true);
  const locator = eocd - 20;
  if (locator >= 0 && view.getUint32(locator, true) === ZIP64_LOCATOR_SIG) {
    const zip64Offset = Number(view.getBigUint64(locator + 8, true));
    const z = source.read(zip64Offset, 56);
    const zview = new DataView(z.buffer, z.byteOffset, z.byteLength);
    if (z.length < 56 || zview.getUint32(0, true) !== ZIP64_EOCD_SIG) {
      throw new FormatError('zip/bad-zip64', 'broken ZIP64 end of central directory', zip64Offset);
    }
    count = Number(zview.getBigUint64(32, true));
    cdSize = Number(zview.getBigUint64(40, true));
    cdOffset = Number(zview.getBigUint64(48, true));
  }
  if (count > MAX_ENTRIES || cdOffset + cdSize > source.size) {
    throw new FormatError(
      'zip/bad-directory',
      'the ZIP central directory points outside the file',
      tailStart + eocd,
    );
  }
  const cd = source.read(cdOffset, cdSize);
  const cview = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || cview.getUint32(p, true) !== CENTRAL_SIG) {
      throw new FormatError(
        'zip/bad-directory',
        `central directory entry ${i} is broken`,
        cdOffset + p,
      );
    }
    const method = cview.getUint16(p + 10, true);
    let compressedSize = cview.getUint32(p + 20, true);
    let size = cview.getUint32(p + 24, true);
    const nameLength = cview.getUint16(p + 28, true);
    const extraLength = cview.getUint16(p + 30, true);
    const commentLength = cview.getUint16(p + 32, true);
    let localHeaderOffset = cview.getUint32(p + 42, true);
    if (p + 46 + nameLength + extraLength > cd.length) {
      throw new FormatError(
        'zip/bad-directory',
        `central directory entry ${i} is cut off`,
        cdOffset + p,
      );
    }
    const name = decoder.decode(cd.subarray(p + 46, p + 46 + nameLength));
    // ZIP64 extra field: the 64-bit values appear in this order, only for fields set to 0xFFFFFFFF.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = cview.getUint16(e, true);
      const len = cview.getUint16(e + 2, true);
      if (id === 0x0001) {
        let q = e + 4;
        if (size === 0xffffffff) {
          size = Number(cview.getBigUint64(q, true));
          q += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = Number(cview.getBigUint64(q, true));
          q += 8;
        }
        if (localHeaderOffset === 0xffffffff)
          localHeaderOffset = Number(cview.getBigUint64(q, true));
      }
      e += 4 + len;
    }
    entries.push({ name, method, compressedSize, size, localHeaderOffset });
    p = extraEnd + commentLength;
  }
  return entries;
}

/** Where an entry's data starts: after its local header, whose extra field may differ. */
export function entryDataOffset(source: ByteSource, entry: ZipEntry): number {
  const header = source.read(entry.localHeaderOffset, 30);
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (header.length < 30 || view.getUint32(0, true) !== LOCAL_SIG) {
    throw new FormatError(
      'zip/bad-local-header',
      `entry ${entry.name} has no local header`,
      entry.localHeaderOffset,
    );
  }
  const start = entry.localHeaderOffset + 30 + view.getUint16(26, true) + view.getUint16(28, true);
  if (start + entry.compressedSize > source.size) {
    throw new FormatError(
      'zip/entry-truncated',
      `entry ${entry.name} runs past the end of the file`,
      start,
    );
  }
  return start;
}
