import { jsonText } from '../core/model/json-text';
import type { Writable } from 'node:stream';

/**
 * Writes `JSON.stringify(value)` of an object to a stream without ever holding it as one
 * string: arrays (or iterables, e.g. rows unpacked one at a time) directly under the object go
 * out an element at a time, and so do the arrays of those elements (a row's items), in chunks,
 * waiting for the stream to drain. A 100,000-sample dump's rows are more JSON than a string can
 * hold, and so is the one row of a 200 MB single-process Chrome trace.
 */
export async function writeJsonStreaming(
  out: Writable,
  value: Record<string, unknown>,
): Promise<void> {
  const writer = chunkWriter(out);
  await writeObject(writer, value, 0);
  await writer.write('\n');
  await writer.flush();
}

type Writer = ReturnType<typeof chunkWriter>;

/** How many levels of arrays are written element by element: the rows, then their items. */
const STREAMED_LEVELS = 2;

/** JSON.stringify leaves out keys whose value it cannot write. */
const writable = (v: unknown) =>
  v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';

/** arrays, and generators (written as JSON.stringify writes the array they would make) */
const isStreamable = (v: unknown): v is Iterable<unknown> =>
  Array.isArray(v) || Object.prototype.toString.call(v) === '[object Generator]';

async function writeObject(writer: Writer, value: object, level: number): Promise<void> {
  await writer.write('{');
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    if (!writable(field)) continue;
    await writer.write(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (level < STREAMED_LEVELS && isStreamable(field)) await writeArray(writer, field, level + 1);
    else await writer.write(jsonText(field));
  }
  await writer.write('}');
}

async function writeArray(writer: Writer, values: Iterable<unknown>, level: number): Promise<void> {
  await writer.write('[');
  let i = 0;
  for (const element of values) {
    await writer.write(i++ === 0 ? '' : ',');
    const plain =
      typeof element === 'object' &&
      element !== null &&
      !Array.isArray(element) &&
      !('toJSON' in element);
    if (plain && level < STREAMED_LEVELS) await writeObject(writer, element, level);
    else await writer.write(jsonText(element) ?? 'null');
  }
  await writer.write(']');
}

const CHUNK_CHARS = 1 << 20;

function chunkWriter(out: Writable) {
  let pending: string[] = [];
  let size = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    size = 0;
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', resolve));
  };
  return {
    flush,
    async write(text: string) {
      pending.push(text);
      size += text.length;
      if (size >= CHUNK_CHARS) await flush();
    },
  };
}
