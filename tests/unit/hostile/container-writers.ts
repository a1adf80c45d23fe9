import { crc32 } from 'node:zlib';
import { PickleWriter, type Py } from './pickle-writer';

/**
 * torch's legacy layout (`torch.save(..., _use_new_zipfile_serialization=False)`): magic,
 * protocol, sys info, the data pickle, the storage keys, then each storage as an int64
 * element count and its bytes.
 */
export function legacyTorch(
  data: Uint8Array,
  storages: { key: string; numel: bigint; bytes: Uint8Array }[] = [],
): Uint8Array {
  const magic = new PickleWriter().proto().op(0x8a, 10);
  let m = 0x1950a86a20f9469cfc6cn;
  for (let i = 0; i < 10; i++) {
    magic.op(Number(m & 0xffn));
    m >>= 8n;
  }
  const parts: Uint8Array[] = [
    magic.stop().bytes(),
    new PickleWriter().proto().op(0x4d, 0xe9, 0x03).stop().bytes(),
    new PickleWriter().proto().py({}).stop().bytes(),
    data,
    new PickleWriter()
      .proto()
      .py(storages.map((s) => s.key))
      .stop()
      .bytes(),
  ];
  for (const s of storages) {
    const head = new Uint8Array(8);
    new DataView(head.buffer).setBigInt64(0, s.numel, true);
    parts.push(head, s.bytes);
  }
  return concat(parts);
}

/**
 * A slime dump {"rollout_id": 0, "samples": <what `samples` writes>} as a legacy torch file;
 * `samples` leaves exactly one value (the list) on the stack.
 */
export function slimeDump(samples: (w: PickleWriter) => void): Uint8Array {
  const w = new PickleWriter().proto().op(0x7d, 0x28).str('rollout_id').int(0).str('samples');
  samples(w);
  return legacyTorch(w.op(0x75).stop().bytes());
}

/** A slime dump of plain samples, each {"index", "trace": {"events": [...]}}. */
export function slimeDumpOf(eventsPerSample: Py[][]): Uint8Array {
  return slimeDump((w) =>
    w.py(eventsPerSample.map((events, index) => ({ index, trace: { events } }))),
  );
}

export interface ZipEntrySpec {
  name: string;
  /** bytes as stored in the archive */
  data: Uint8Array;
  /** 0 stored, 8 deflated */
  method: 0 | 8;
  /** the inflated size the headers claim (defaults to data's length) */
  claimedSize?: number;
}

/** A plain ZIP (no ZIP64): local headers, data, central directory, end record. */
export function zipBytes(entries: ZipEntrySpec[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = new TextEncoder().encode(entry.name);
    const size = entry.claimedSize ?? entry.data.length;
    const crc = crc32(entry.data) >>> 0;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, entry.method, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, entry.data.length, true);
    local.setUint32(22, size, true);
    local.setUint16(26, name.length, true);
    const cd = new DataView(new ArrayBuffer(46));
    cd.setUint32(0, 0x02014b50, true);
    cd.setUint16(4, 20, true);
    cd.setUint16(6, 20, true);
    cd.setUint16(10, entry.method, true);
    cd.setUint32(16, crc, true);
    cd.setUint32(20, entry.data.length, true);
    cd.setUint32(24, size, true);
    cd.setUint16(28, name.length, true);
    cd.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), name, entry.data);
    central.push(new Uint8Array(cd.buffer), name);
    offset += 30 + name.length + entry.data.length;
  }
  const cdBytes = concat(central);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, cdBytes.length, true);
  end.setUint32(16, offset, true);
  return concat([...parts, cdBytes, new Uint8Array(end.buffer)]);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
