import type { Writable } from 'node:stream';

/**
 * Writes `JSON.stringify(value)` of an object to a stream without ever holding it as one
 * string: arrays directly under the object go out an element at a time, in chunks, waiting for
 * the stream to drain. A 100,000-sample dump's rows are more JSON than a string can hold.
 */
export async function writeJsonStreaming(
  out: Writable,
  value: Record<string, unknown>,
): Promise<void> {
  const writer = chunkWriter(out);
  await writer.write('{');
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    // JSON.stringify leaves out keys whose value it cannot write
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    await writer.write(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (Array.isArray(field)) {
      await writer.write('[');
      for (let i = 0; i < field.length; i++) {
        await writer.write(`${i === 0 ? '' : ','}${JSON.stringify(field[i]) ?? 'null'}`);
      }
      await writer.write(']');
    } else {
      await writer.write(JSON.stringify(field));
    }
  }
  await writer.write('}\n');
  await writer.flush();
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
