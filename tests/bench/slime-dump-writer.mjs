// A small torch-archive writer for benchmarks: dumps shaped like slime's (thousands of
// samples, long token lists, traces with PD child spans and tool calls), in torch's zip
// layout (stored entries, 64-byte aligned data, local headers with flag 0x0808 and zero
// sizes, ZIP64 when large) holding a protocol-2 pickle of {"rollout_id", "samples": [...]}.
import { closeSync, openSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { readTemplates, realShapedSamples } from './real-shaped-samples.mjs';

/**
 * Strings a Python program pickles as one object again and again: interned keys and literals
 * (event types, span names, statuses), and ids an event shares with its span and trace (a
 * span_end holds its span_start's span_id object). The pickler memoizes objects, so real dumps
 * write each once and BINGET it after; text (messages, prompts) is a new object each time.
 */
const INTERNED = /^\S{1,64}$/;
/** a Sample.Status member, and an object of a Sample's nested class, in a sample written as an object */
const ENUM = Symbol('enum member');
const OBJECT = Symbol('nested object');
/** a torch tensor: its storage pickled as a persistent id, its bytes an entry of the archive */
const TENSOR = Symbol('tensor');

/**
 * A tensor for PickleWriter.value: `type` its storage class (FloatStorage, ...), `itemSize` its
 * element's bytes, `shape`; `fill(bytes)` writes its storage's bytes (without, byte k of storage
 * `key` is (key + k) & 0xff, so a storage read from the wrong place shows it).
 */
export function tensorValue(spec) {
  return { [TENSOR]: spec };
}

export class PickleWriter {
  constructor(flush) {
    this.buf = Buffer.allocUnsafe(1 << 22);
    this.pos = 0;
    this.flush = flush;
    this.memo = 0;
    // strings CPython's pickler meets as one object again (interned keys and literals): their
    // memo index, so they are written once and read back with BINGET, as in real dumps
    this.interned = new Map();
  }
  ensure(n) {
    if (this.pos + n > this.buf.length) {
      this.flush(this.buf.subarray(0, this.pos));
      this.buf = Buffer.allocUnsafe(Math.max(1 << 22, n));
      this.pos = 0;
    }
  }
  /** bytes as they are: opcodes copied from a real pickle */
  raw(bytes) {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }
  op(...bytes) {
    this.ensure(bytes.length);
    for (const b of bytes) this.buf[this.pos++] = b;
  }
  put() {
    // BINPUT / LONG_BINPUT like CPython's pickler
    const i = this.memo++;
    if (i < 256) this.op(0x71, i);
    else {
      this.ensure(5);
      this.buf[this.pos++] = 0x72;
      this.buf.writeUInt32LE(i, this.pos);
      this.pos += 4;
    }
  }
  int(v) {
    if (v >= 0 && v < 256) this.op(0x4b, v);
    else if (v >= 0 && v < 65536) {
      this.ensure(3);
      this.buf[this.pos++] = 0x4d;
      this.buf.writeUInt16LE(v, this.pos);
      this.pos += 2;
    } else {
      this.ensure(5);
      this.buf[this.pos++] = 0x4a;
      this.buf.writeInt32LE(v, this.pos);
      this.pos += 4;
    }
  }
  float(v) {
    this.ensure(9);
    this.buf[this.pos++] = 0x47;
    this.buf.writeDoubleBE(v, this.pos);
    this.pos += 8;
  }
  get(i) {
    if (i < 256) this.op(0x68, i);
    else {
      this.ensure(5);
      this.buf[this.pos++] = 0x6a;
      this.buf.writeUInt32LE(i, this.pos);
      this.pos += 4;
    }
  }
  str(s, intern = false) {
    if (intern) {
      const known = this.interned.get(s);
      if (known !== undefined) return this.get(known);
      this.interned.set(s, this.memo);
    }
    const b = Buffer.from(s, 'utf8');
    this.ensure(5 + b.length);
    this.buf[this.pos++] = 0x58;
    this.buf.writeUInt32LE(b.length, this.pos);
    this.pos += 4;
    b.copy(this.buf, this.pos);
    this.pos += b.length;
    this.put();
  }
  value(v) {
    if (v === null || v === undefined) this.op(0x4e);
    else if (v === true) this.op(0x88);
    else if (v === false) this.op(0x89);
    else if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 31) this.int(v);
    else if (typeof v === 'number') this.float(v);
    else if (typeof v === 'string') this.str(v, INTERNED.test(v));
    else if (Array.isArray(v)) this.list(v);
    else if (v[ENUM] !== undefined) this.statusMember(v[ENUM]);
    else if (v[OBJECT] !== undefined) this.newObject(() => this.sampleMember(v[OBJECT]), v.state);
    else if (v[TENSOR] !== undefined) this.tensor(v[TENSOR]);
    else this.dict(v);
  }
  list(items) {
    this.op(0x5d);
    this.put();
    for (let i = 0; i < items.length; i += 1000) {
      this.op(0x28);
      for (const item of items.slice(i, i + 1000)) this.value(item);
      this.op(0x65);
    }
  }
  /** GLOBAL module.name, memoized: BINGET after the first time */
  global(module, name) {
    const key = `${module}.${name}`;
    this.globals ??= new Map();
    const known = this.globals.get(key);
    if (known !== undefined) return this.get(known);
    const global = Buffer.from(`c${module}\n${name}\n`, 'latin1');
    this.ensure(global.length);
    global.copy(this.buf, this.pos);
    this.pos += global.length;
    this.globals.set(key, this.memo);
    this.put();
  }
  /**
   * getattr(owner, name) as CPython pickles what it names (a nested class of Sample, a member
   * of Sample.Status): REDUCE of getattr, memoized as the object it is (`key`), BINGET after.
   * `owner` writes the object the attribute is read from.
   */
  getattr(key, owner, name) {
    this.getattrSlots ??= new Map();
    const known = this.getattrSlots.get(key);
    if (known !== undefined) return this.get(known);
    this.global('__builtin__', 'getattr');
    owner();
    this.str(name, true);
    this.op(0x86); // TUPLE2
    this.put();
    this.op(0x52); // REDUCE
    this.getattrSlots.set(key, this.memo);
    this.put();
  }
  /** a nested class of slime's Sample (Status, SpecInfo, PrefixCacheInfo) */
  sampleMember(name) {
    this.getattr(`Sample.${name}`, () => this.global('slime.utils.types', 'Sample'), name);
  }
  /** the Sample.Status member named `member` (upper case), one object per member */
  statusMember(member) {
    this.getattr(`Sample.Status.${member}`, () => this.sampleMember('Status'), member);
  }
  /** an object of the class `writeClass` writes: NEWOBJ of no arguments, BUILD from `state` */
  newObject(writeClass, state) {
    writeClass();
    this.op(0x29, 0x81); // EMPTY_TUPLE, NEWOBJ
    this.put();
    this.dict(state);
    this.op(0x62); // BUILD
  }
  /**
   * A slime `Sample` object as CPython pickles one (protocol 2, as the fixture
   * sample_objects.pt holds them): its class (GLOBAL once, BINGET after), NEWOBJ of no
   * arguments, then BUILD from the dict of its attributes, where `status` is a Sample.Status
   * member (getattr(Sample.Status, "COMPLETED"), one object per member, read back by memo by
   * later samples) and `spec_info` and `prefix_cache_info` are objects of nested classes.
   */
  sampleObject(attributes) {
    this.newObject(() => this.global('slime.utils.types', 'Sample'), {
      ...attributes,
      status: { [ENUM]: attributes.status.toUpperCase() },
      spec_info: {
        [OBJECT]: 'SpecInfo',
        state: { spec_accept_token_num: 0, spec_draft_token_num: 0, spec_verify_ct: 0 },
      },
      prefix_cache_info: {
        [OBJECT]: 'PrefixCacheInfo',
        state: { cached_tokens: 0, total_prompt_tokens: attributes.tokens.length },
      },
    });
  }
  /**
   * A contiguous tensor as torch.save pickles one (protocol 2, as the fixture
   * rollout_tensors.pt holds them): REDUCE of torch._utils._rebuild_tensor_v2 over its storage
   * (BINPERSID of ('storage', torch.<Type>Storage, key, 'cpu', numel)), offset, size, stride,
   * requires_grad and an empty OrderedDict of hooks. The storage's key is the next number;
   * its bytes are written as `data/<key>` after the pickle (`storages`).
   */
  tensor({ type, itemSize, shape, fill }) {
    this.storages ??= [];
    const key = this.storages.length;
    const numel = shape.reduce((a, b) => a * b, 1);
    this.storages.push({ key, bytes: numel * itemSize, fill });
    this.global('torch._utils', '_rebuild_tensor_v2');
    this.op(0x28, 0x28); // MARK (arguments), MARK (the persistent id)
    this.str('storage', true);
    this.global('torch', type);
    this.str(String(key));
    this.str('cpu', true);
    this.int(numel);
    this.op(0x74); // TUPLE
    this.put();
    this.op(0x51); // BINPERSID
    this.int(0);
    const tuple = (values) => {
      this.op(0x28);
      for (const v of values) this.int(v);
      this.op(0x74);
      this.put();
    };
    tuple(shape);
    tuple(shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1)));
    this.op(0x89); // NEWFALSE
    this.global('collections', 'OrderedDict');
    this.op(0x29, 0x52); // EMPTY_TUPLE, REDUCE
    this.put();
    this.op(0x74); // TUPLE (the arguments)
    this.put();
    this.op(0x52); // REDUCE
    this.put();
  }
  dict(o) {
    this.op(0x7d);
    this.put();
    const keys = Object.keys(o);
    for (let i = 0; i < keys.length; i += 1000) {
      this.op(0x28);
      for (const k of keys.slice(i, i + 1000)) {
        this.str(k, true);
        this.value(o[k]);
      }
      this.op(0x75);
    }
  }
}

/** xorshift32 in [0, 1): a fixed seed makes every generated dump (and fuzz case) the same */
export function random(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

function hex(rand, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rand() * 16).toString(16);
  return s;
}

function sampleDict(i, rand, tokensPerSample, shape) {
  const group = Math.floor(i / 8);
  // rollouts an hour apart, as slime's fixtures are
  const t0 = 1760000000 + 3600 * shape.rolloutId + rand() * 5;
  const traceId = hex(rand, 32);
  const events = [];
  let attempt = 0;
  const ev = (type, name, ts, spanId, parent, attrs) => {
    const e = { type, name, ts, trace_id: traceId, sample_id: i, group_id: group, attempt };
    if (spanId) e.span_id = spanId;
    if (parent) e.parent_span_id = parent;
    if (attrs) e.attrs = attrs;
    events.push(e);
  };
  // slime's partial rollout: the first `resumedGroups` groups started `resumedFrom` rollouts
  // earlier, were aborted when that rollout ended, and resume here as attempt 1 (their trace
  // keeps both attempts; metadata.start_rollout_id names the rollout where they started)
  const resumed = group < (shape.resumedGroups ?? 0);
  const startRolloutId = resumed ? shape.rolloutId - (shape.resumedFrom ?? 1) : shape.rolloutId;
  if (resumed) {
    const tEarlier = 1760000000 + 3600 * startRolloutId + rand() * 5;
    const first = hex(rand, 32);
    ev('span_start', 'generate_and_rm', tEarlier, first, null, null);
    const gen = hex(rand, 32);
    const ran = 5 + rand() * 20;
    ev('span_start', 'sglang_generate', tEarlier, gen, first, { max_new_tokens: 8192 });
    ev('event', 'abort_request', tEarlier + ran, null, gen, { reason: 'rollout_end' });
    ev('span_end', 'sglang_generate', tEarlier + ran, gen, null, { finish_reason: 'abort', queue_time: 0.01, e2e_latency: ran });
    ev('span_end', 'generate_and_rm', tEarlier + ran, first, null, null);
    ev('event', 'attempt_start', t0, null, null, { attempt: 1, reason: 'partial_rollout_resume' });
    attempt = 1;
  }
  const root = hex(rand, 32);
  ev('span_start', 'generate_and_rm', t0, root, null, null);
  let t = t0;
  const turns = 1 + Math.floor(rand() * 3);
  for (let k = 0; k < turns; k++) {
    const gen = hex(rand, 32);
    ev('span_start', 'sglang_generate', t, gen, root, { max_new_tokens: 8192 });
    const pre = hex(rand, 32);
    ev('span_start', 'sglang_pd_prefill', t, pre, gen, null);
    const forward = 0.05 + rand() * 0.2;
    ev('span_end', 'sglang_pd_prefill', t + forward, pre, null, { phase: 'prefill', duration_s: forward });
    const dec = hex(rand, 32);
    const decode = (1 + rand() * 30) * shape.slowdown;
    ev('span_start', 'sglang_pd_decode', t + forward, dec, gen, null);
    ev('span_end', 'sglang_pd_decode', t + forward + decode, dec, null, { phase: 'decode', duration_s: decode });
    t += forward + decode;
    ev('span_end', 'sglang_generate', t, gen, null, { prompt_tokens: 400, completion_tokens: 600, queue_time: rand() * 0.1, e2e_latency: forward + decode, decode_throughput: 60 + rand() * 40, finish_reason: 'stop' });
    const tool = hex(rand, 32);
    ev('span_start', 'tool_call', t, tool, root, { tool: 'python' });
    ev('event', 'tool_output', t + 0.1, null, tool, { bytes: 120 });
    t += 0.3;
    ev('span_end', 'tool_call', t, tool, null, { exit_code: 0 });
  }
  ev('span_end', 'generate_and_rm', t + 0.01, root, null, null);
  const n = tokensPerSample;
  const tokens = Array.from({ length: n }, () => Math.floor(rand() * 150000));
  return {
    group_index: group,
    index: i,
    prompt: [{ role: 'user', content: `Question ${i}: compute ${Math.floor(rand() * 1000)} * ${Math.floor(rand() * 1000)}.` }],
    tokens,
    response: 'The answer is 42.',
    response_length: Math.floor(n / 2),
    label: String(Math.floor(rand() * 1000)),
    reward: Math.min(1, rand() * shape.rewardScale),
    loss_mask: Array.from({ length: Math.floor(n / 2) }, () => 1),
    rollout_log_probs: Array.from({ length: Math.floor(n / 2) }, () => -rand() * 3),
    status: i % 7 === 0 ? 'aborted' : i % 5 === 0 ? 'truncated' : 'completed',
    ...(shape.tensors
      ? {
          // slime's routing replay (rollout_routed_experts) and a teacher's log probs, as tensors
          rollout_routed_experts: { [TENSOR]: { type: 'IntStorage', itemSize: 4, shape: [Math.floor(n / 2), 4, 2] } },
          teacher_log_probs: { [TENSOR]: { type: 'FloatStorage', itemSize: 4, shape: [Math.floor(n / 2)] } },
        }
      : {}),
    metadata: {
      source: ['gsm8k', 'math', 'aime'][i % 3],
      ...(resumed || shape.markStartRolloutId ? { start_rollout_id: startRolloutId } : {}),
    },
    trace: { version: 1, trace_id: traceId, events, sample_id: i, group_id: group, attempt },
  };
}

/**
 * Writes a dump of about `targetBytes` to `path`; returns its sample count. `shape` varies a run's
 * rollouts: its `rolloutId` (also its clock: an hour per rollout), the `seed`, decode times times
 * `slowdown`, rewards times `rewardScale`; `resumedGroups` groups (8 samples each) resumed from
 * `resumedFrom` rollouts earlier (slime's partial rollout), and `markStartRolloutId` to give
 * every sample metadata.start_rollout_id (its own rollout's id when not resumed);
 * `sampleObjects` pickles each sample as a slime `Sample` object instead of its dict;
 * `tensors` gives each sample two tensors (their storages entries of the archive, as
 * torch.save writes them); `realSamples` (paths of fixture dumps of sample dicts) writes their
 * samples again instead, with new ids, times and token ids (real-shaped-samples.mjs), so the dump
 * has a real dump's opcodes per sample.
 */
export function writeSlimeDump(path, targetBytes, tokensPerSample = 8000, maxSamples = Infinity, shape = {}) {
  const {
    rolloutId = 0,
    seed = 1234,
    slowdown = 1,
    rewardScale = 1,
    resumedGroups = 0,
    resumedFrom = 1,
    markStartRolloutId = false,
    // CPython's pickler appends a list's items 1000 at a time (pickle._BATCHSIZE)
    batchSize = 1000,
    sampleObjects = false,
    tensors = false,
    realSamples = null,
  } = shape;
  return writeTorchArchive(path, 'rollout_bench', (writer, written) => {
    const rand = random(seed);
    const real = realSamples && realShapedSamples(realSamples.map(readTemplates), rand, { rolloutId });
    writer.op(0x7d);
    writer.put();
    writer.op(0x28);
    writer.str('rollout_id');
    writer.int(rolloutId);
    writer.str('samples');
    writer.op(0x5d);
    writer.put();
    let count = 0;
    while (written() < targetBytes && count < maxSamples) {
      writer.op(0x28);
      for (let k = 0; k < batchSize && written() < targetBytes && count < maxSamples; k++) {
        if (real) {
          real.write(writer, count++);
          continue;
        }
        writer[sampleObjects ? 'sampleObject' : 'dict'](
          sampleDict(count++, rand, tokensPerSample, {
            rolloutId,
            slowdown,
            rewardScale,
            resumedGroups,
            resumedFrom,
            markStartRolloutId,
            tensors,
          }),
        );
      }
      writer.op(0x65);
    }
    writer.op(0x75); // SETITEMS: rollout_id, samples
    return count;
  });
}


/**
 * A torch.save archive at `path` as torch writes one (see the top comment): `body(writer,
 * written)` pickles the value after PROTO 2 (`written()` the pickle's bytes so far) and returns
 * what writeTorchArchive returns; every tensor it pickled gets its storage entry after the pickle.
 */
export function writeTorchArchive(path, stem, body) {
  const fd = openSync(path, 'w');
  let offset = 0;
  const write = (b) => {
    writeSync(fd, b);
    offset += b.length;
  };
  const entries = [];
  const localHeader = (name, extraLen) => {
    const nameBytes = Buffer.from(name);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(45, 4);
    h.writeUInt16LE(0x0808, 6);
    h.writeUInt16LE(nameBytes.length, 26);
    h.writeUInt16LE(extraLen, 28);
    return [h, nameBytes];
  };
  // data.pkl streamed: CRC and size computed on the fly, written in the central directory
  const pklName = `${stem}/data.pkl`;
  const pklHeaderOffset = offset;
  const headerLen = 30 + Buffer.byteLength(pklName);
  const pad = (64 - ((offset + headerLen + 4) % 64)) % 64;
  const [h, n] = localHeader(pklName, 4 + pad);
  const extra = Buffer.alloc(4 + pad);
  extra.writeUInt16LE(0xcafe, 0);
  extra.writeUInt16LE(pad, 2);
  write(h);
  write(n);
  write(extra);
  let crc = 0;
  let size = 0;
  const writer = new PickleWriter((chunk) => {
    crc = crc32(chunk, crc);
    size += chunk.length;
    write(Buffer.from(chunk));
  });
  writer.op(0x80, 2);
  const result = body(writer, () => size + writer.pos);
  writer.op(0x2e);
  writer.flush(writer.buf.subarray(0, writer.pos));
  entries.push({ name: pklName, crc: crc >>> 0, size, offset: pklHeaderOffset });
  // each storage's bytes, 64-byte aligned as torch writes them (`fill`, or byte k of storage
  // `key` (key + k) & 0xff, so a storage read from the wrong place shows it)
  for (const { key, bytes, fill } of writer.storages ?? []) {
    const name = `${stem}/data/${key}`;
    const at = offset;
    const pad = (64 - ((offset + 30 + Buffer.byteLength(name) + 4) % 64)) % 64;
    const [sh, sn] = localHeader(name, 4 + pad);
    const sx = Buffer.alloc(4 + pad);
    sx.writeUInt16LE(0xcafe, 0);
    sx.writeUInt16LE(pad, 2);
    const data = Buffer.alloc(bytes);
    if (fill) fill(data);
    else for (let k = 0; k < bytes; k++) data[k] = (key + k) & 0xff;
    write(sh);
    write(sn);
    write(sx);
    write(data);
    entries.push({ name, crc: crc32(data) >>> 0, size: bytes, offset: at });
  }
  // version entry
  const versionName = `${stem}/version`;
  const version = Buffer.from('3\n');
  const vOffset = offset;
  const [vh, vn] = localHeader(versionName, 0);
  write(vh);
  write(vn);
  write(version);
  entries.push({ name: versionName, crc: crc32(version) >>> 0, size: version.length, offset: vOffset });
  // central directory with ZIP64 extras
  const cdStart = offset;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(45, 4);
    c.writeUInt16LE(45, 6);
    c.writeUInt16LE(0x0808, 8);
    c.writeUInt32LE(e.crc, 16);
    c.writeUInt32LE(0xffffffff, 20);
    c.writeUInt32LE(0xffffffff, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt16LE(28, 30);
    c.writeUInt32LE(0xffffffff, 42);
    const z = Buffer.alloc(28);
    z.writeUInt16LE(0x0001, 0);
    z.writeUInt16LE(24, 2);
    z.writeBigUInt64LE(BigInt(e.size), 4);
    z.writeBigUInt64LE(BigInt(e.size), 12);
    z.writeBigUInt64LE(BigInt(e.offset), 20);
    write(c);
    write(name);
    write(z);
  }
  const cdSize = offset - cdStart;
  const zip64Eocd = Buffer.alloc(56);
  const zip64Offset = offset;
  zip64Eocd.writeUInt32LE(0x06064b50, 0);
  zip64Eocd.writeBigUInt64LE(44n, 4);
  zip64Eocd.writeUInt16LE(45, 12);
  zip64Eocd.writeUInt16LE(45, 14);
  zip64Eocd.writeBigUInt64LE(BigInt(entries.length), 24);
  zip64Eocd.writeBigUInt64LE(BigInt(entries.length), 32);
  zip64Eocd.writeBigUInt64LE(BigInt(cdSize), 40);
  zip64Eocd.writeBigUInt64LE(BigInt(cdStart), 48);
  write(zip64Eocd);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(zip64Offset), 8);
  locator.writeUInt32LE(1, 16);
  write(locator);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(0xffff, 8);
  eocd.writeUInt16LE(0xffff, 10);
  eocd.writeUInt32LE(0xffffffff, 12);
  eocd.writeUInt32LE(0xffffffff, 16);
  write(eocd);
  closeSync(fd);
  return result;
}
