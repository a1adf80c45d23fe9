import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';

/**
 * Writes text chunks to a file ('-': stdout) as they are made, gzipped on the way when asked,
 * waiting whenever the stream is full: an export of 100k samples never exists as one string.
 */
export async function writeChunks(
  chunks: Iterable<string>,
  output: string,
  gzip: boolean,
): Promise<void> {
  const target: Writable = output === '-' ? process.stdout : createWriteStream(output);
  const sink: Writable = gzip ? createGzip() : target;
  const piped = gzip ? pipeTo(sink, target) : null;
  for (const chunk of chunks) {
    if (!sink.write(chunk)) await once(sink, 'drain');
  }
  if (output === '-' && !gzip) return;
  sink.end();
  await (piped ?? once(target, 'finish'));
}

/** gzip -> file: resolves once the file holds every byte (stdout: once gzip has ended). */
function pipeTo(gzip: Writable, target: Writable): Promise<unknown> {
  (gzip as unknown as NodeJS.ReadableStream).pipe(target, { end: target !== process.stdout });
  return target === process.stdout ? once(gzip, 'end') : once(target, 'finish');
}
