// Samples shaped as slime writes them, for benchmarks: each is a real sample of a fixture dump
// (made by slime's own Sample, trace helpers and torch.save) replayed opcode by opcode, with its
// ids, times, indices and token ids changed, so a 100k-sample dump has a real dump's opcode mix
// (every Sample.to_dict() field, a dict per trace event with its own attrs dict, the memo reads
// of interned keys) instead of the hand-made shape of slime-dump-writer's sampleDict.
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';

// protocol-2 opcodes torch.save writes for slime's samples, by how they move the stack:
// `push` values they push, `pop` values they take off the current frame, `arg` bytes after them
const OPS = new Map(
  Object.entries({
    '}': { name: 'EMPTY_DICT', push: 1 },
    ']': { name: 'EMPTY_LIST', push: 1 },
    ')': { name: 'EMPTY_TUPLE', push: 1 },
    N: { name: 'NONE', push: 1 },
    '\x88': { name: 'NEWTRUE', push: 1 },
    '\x89': { name: 'NEWFALSE', push: 1 },
    K: { name: 'BININT1', push: 1, arg: 1 },
    M: { name: 'BININT2', push: 1, arg: 2 },
    J: { name: 'BININT', push: 1, arg: 4 },
    G: { name: 'BINFLOAT', push: 1, arg: 8 },
    X: { name: 'BINUNICODE', push: 1, arg: 'u32' },
    '\x8a': { name: 'LONG1', push: 1, arg: 'u8' },
    h: { name: 'BINGET', push: 1, arg: 1 },
    j: { name: 'LONG_BINGET', push: 1, arg: 4 },
    q: { name: 'BINPUT', arg: 1 },
    r: { name: 'LONG_BINPUT', arg: 4 },
    '(': { name: 'MARK' },
    u: { name: 'SETITEMS', closes: true },
    e: { name: 'APPENDS', closes: true },
    t: { name: 'TUPLE', closes: true, push: 1 },
    s: { name: 'SETITEM', pop: 2 },
    a: { name: 'APPEND', pop: 1 },
    '\x85': { name: 'TUPLE1', pop: 1, push: 1 },
    '\x86': { name: 'TUPLE2', pop: 2, push: 1 },
    '\x87': { name: 'TUPLE3', pop: 3, push: 1 },
    R: { name: 'REDUCE', pop: 2, push: 1 },
    '\x81': { name: 'NEWOBJ', pop: 2, push: 1 },
    b: { name: 'BUILD', pop: 1 },
    c: { name: 'GLOBAL', push: 1, arg: 'lines2' },
    '\x80': { name: 'PROTO', arg: 1 },
    '.': { name: 'STOP' },
  }).map(([code, op]) => [code.charCodeAt(0), op]),
);

/** One opcode of a pickle: where it lies and what it means for the samples it belongs to. */
function readOps(data) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const ops = [];
  let pos = 0;
  while (pos < data.length) {
    const code = data[pos];
    const op = OPS.get(code);
    if (!op) throw new Error(`real-shaped samples: opcode 0x${code.toString(16)} at ${pos} is not replayed`);
    let len = 1;
    if (op.arg === 'u32') len += 4 + view.getUint32(pos + 1, true);
    else if (op.arg === 'u8') len += 1 + data[pos + 1];
    else if (op.arg === 'lines2') {
      const first = data.indexOf(10, pos + 1);
      len = data.indexOf(10, first + 1) + 1 - pos;
    } else if (op.arg) len += op.arg;
    ops.push({ code, name: op.name, pos, len });
    pos += len;
    if (op.name === 'STOP') break;
  }
  return ops;
}

const text = new TextDecoder();
const memoArg = (view, op) => (op.len === 2 ? view.getUint8(op.pos + 1) : view.getUint32(op.pos + 1, true));

/**
 * Follows the pickle's stack by frames (a MARK opens one): for each value, the key it is stored
 * under when its frame fills a dict, whether it is an item of a long list (token ids), and the
 * first and last opcode of every item of the `samples` list.
 */
function annotate(data, ops) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const memoStrings = new Map();
  const frames = [{ values: [], container: null }];
  const samples = [];
  let samplesFrame = null;
  let lastString = null;
  const top = () => frames[frames.length - 1];
  ops.forEach((op, i) => {
    const frame = top();
    const def = OPS.get(op.code);
    let pushed = null;
    if (op.name === 'BINUNICODE') pushed = { kind: 'str', value: text.decode(data.subarray(op.pos + 5, op.pos + op.len)) };
    else if (op.name === 'BINGET' || op.name === 'LONG_BINGET') {
      const value = memoStrings.get(memoArg(view, op));
      pushed = value === undefined ? { kind: 'ref' } : { kind: 'str', value };
    } else if (op.name === 'EMPTY_DICT') pushed = { kind: 'dict' };
    else if (op.name === 'EMPTY_LIST') pushed = { kind: 'list' };
    else if (def.push) pushed = { kind: 'other' };
    if (op.name === 'BINPUT' || op.name === 'LONG_BINPUT') {
      if (lastString !== null) memoStrings.set(memoArg(view, op), lastString);
      return;
    }
    lastString = op.name === 'BINUNICODE' ? pushed.value : null;
    if (op.name === 'MARK') {
      const container = frame.values[frame.values.length - 1] ?? null;
      frames.push({ values: [], container, start: i });
      if (container?.key === 'samples' && container.kind === 'list') samplesFrame = top();
      return;
    }
    if (def.closes) {
      const closed = frames.pop();
      if (closed === samplesFrame) samples.push(...closed.items.map((start, k) => ({ start, end: (closed.items[k + 1] ?? i) - 1 })));
      if (def.push) top().values.push({ kind: 'other' });
      return;
    }
    const previous = frame.last;
    frame.last = op.name;
    for (let k = 0; k < (def.pop ?? 0); k++) frame.values.pop();
    if (!pushed && !def.push) return;
    pushed ??= { kind: 'other' };
    const inDict = frame.container?.kind === 'dict';
    if (inDict && frame.values.length % 2 === 1) {
      const key = frame.values[frame.values.length - 1];
      if (key.kind === 'str') {
        pushed.key = key.value;
        op.key = key.value;
      }
    }
    if (frame.container?.kind === 'list' && frame.container.key !== 'samples') op.listItem = true;
    // an item starts with a push onto as many values as items before it: a dict's EMPTY_DICT,
    // an object's class; not the EMPTY_TUPLE of NEWOBJ's arguments after the class, nor the
    // state dict that BUILD then gives the object NEWOBJ made
    const starts =
      frame.values.length === (frame.items ??= []).length &&
      op.name !== 'EMPTY_TUPLE' &&
      previous !== 'NEWOBJ';
    if (frame === samplesFrame && starts) frame.items.push(i);
    frame.values.push(pushed);
  });
  return samples;
}

/** The samples of a torch.save'd `{"rollout_id", "samples": [...]}` of dicts, as opcode ranges. */
export function readTemplates(path) {
  const files = unzipSync(readFileSync(path));
  const name = Object.keys(files).find((n) => n.endsWith('/data.pkl'));
  if (!name) throw new Error(`${path}: no data.pkl`);
  const data = files[name];
  const ops = readOps(data);
  const samples = annotate(data, ops);
  if (samples.length === 0) throw new Error(`${path}: no samples list`);
  return { path, data, ops, samples };
}

// a string Python holds as one object wherever it appears (dict keys, event types, span names,
// statuses: identifiers and literals): read back by memo after its first time, as in real dumps
const INTERNED = /^[A-Za-z_][\w.:/-]{0,63}$/;
// an id a sample owns (trace, span, request ids): new in every copy, shared within it
const OWN_ID = /^[0-9a-f]{8,64}$/;

function randomHex(rand, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rand() * 16).toString(16);
  return s;
}

/**
 * Writes samples copied from `templates` (readTemplates of fixture dumps) into a PickleWriter:
 * `write(writer, index)` appends the sample of that index. The first pass replays every template
 * sample once in order, so memo reads of strings an earlier sample wrote resolve; later copies
 * cycle through them with new ids, times moved to the copy's place, and new token ids of the
 * same widths (the opcodes stay the same).
 */
export function realShapedSamples(templates, rand, { rolloutId = 0, samplesPerGroup = 8 } = {}) {
  // the dump's own header (slime-dump-writer) memoizes as every torch.save'd {"rollout_id",
  // "samples"} does: the dict 0, "rollout_id" 1, "samples" 2, the list 3; samples may read them
  const header = new Map([[0, 0], [1, 1], [2, 2], [3, 3]]);
  const interned = new Map([['rollout_id', 1], ['samples', 2]]);
  const firstPass = templates.map((template) => {
    const wrapper = template.ops.slice(0, template.samples[0].start).map((op) => op.name).join(' ');
    if (wrapper !== 'PROTO EMPTY_DICT BINPUT MARK BINUNICODE BINPUT BININT1 BINUNICODE BINPUT EMPTY_LIST BINPUT MARK')
      throw new Error(`${template.path}: not a torch.save'd {"rollout_id", "samples"} dict`);
    return new Map(header);
  });
  const order = templates.flatMap((template, t) => template.samples.map((range, s) => ({ template, t, range, s })));
  const clockStart = 1760000000 + 3600 * rolloutId;
  let templateClock = null;
  return {
    /** how many samples the first pass replays as they are */
    firstPassSamples: order.length,
    write(writer, index) {
      const { template, t, range } = order[index % order.length];
      // the first pass's slots serve every later copy's reads of what earlier samples wrote
      const shared = firstPass[t];
      const memo = index < order.length ? shared : new Map();
      const { data, ops } = template;
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      const group = Math.floor(index / samplesPerGroup);
      // each copy starts a little later than the last, as a rollout's samples do
      const shift = clockStart + index * 0.01 + rand() * 0.5;
      const ownIds = new Map();
      let reused = null;
      for (let i = range.start; i <= range.end; i++) {
        const op = ops[i];
        const bytes = data.subarray(op.pos, op.pos + op.len);
        switch (op.name) {
          case 'BINPUT':
          case 'LONG_BINPUT': {
            const old = memoArg(view, op);
            if (reused !== null) memo.set(old, reused);
            else {
              memo.set(old, writer.memo);
              writer.put();
            }
            reused = null;
            break;
          }
          case 'BINGET':
          case 'LONG_BINGET': {
            const old = memoArg(view, op);
            const slot = memo.get(old) ?? shared.get(old);
            if (slot === undefined) throw new Error(`${template.path}: a memo read before its write`);
            writer.get(slot);
            break;
          }
          case 'BINUNICODE': {
            const value = text.decode(bytes.subarray(5));
            const known = interned.get(value);
            if (OWN_ID.test(value)) {
              if (!ownIds.has(value)) ownIds.set(value, randomHex(rand, value.length));
              writer.raw(Buffer.concat([bytes.subarray(0, 5), Buffer.from(ownIds.get(value), 'latin1')]));
            } else if (known !== undefined && INTERNED.test(value)) {
              writer.get(known);
              reused = known;
            } else {
              if (INTERNED.test(value)) interned.set(value, writer.memo);
              writer.raw(bytes);
            }
            break;
          }
          case 'BINFLOAT': {
            const value = view.getFloat64(op.pos + 1, false);
            // epoch times move to the copy's place; durations and log probs stay
            if (value > 1e9 && value < 1e10) {
              templateClock ??= value;
              writer.float(shift + (value - templateClock));
            } else writer.raw(bytes);
            break;
          }
          case 'BININT1':
          case 'BININT2':
          case 'BININT': {
            if (op.key === 'index' || op.key === 'sample_id' || op.key === 'sample_index') writer.int(index);
            else if (op.key === 'group_index' || op.key === 'group_id') writer.int(group);
            else if (op.listItem && op.name === 'BININT2') writer.raw(Buffer.from([0x4d, Math.floor(rand() * 256), 1 + Math.floor(rand() * 255)]));
            else if (op.listItem && op.name === 'BININT') {
              const b = Buffer.alloc(5);
              b[0] = 0x4a;
              b.writeInt32LE(65536 + Math.floor(rand() * 85000), 1);
              writer.raw(b);
            } else writer.raw(bytes);
            break;
          }
          default:
            writer.raw(bytes);
        }
      }
    },
  };
}

/** Opcode counts of a pickle's samples, by name: what a sample of a dump is made of. */
export function samplesOpcodeMix(template) {
  const counts = {};
  for (const { start, end } of template.samples)
    for (let i = start; i <= end; i++) counts[template.ops[i].name] = (counts[template.ops[i].name] ?? 0) + 1;
  return { samples: template.samples.length, counts };
}
