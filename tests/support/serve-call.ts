import { decodeAnswer, encodeAnswer, type EncodedAnswer } from '../../src-main/core/api/typed-json';

/**
 * A TraceApi call over serve mode's HTTP transport, as the renderer makes it: the token in its
 * header, the answer read back with typed arrays (typed-json.ts). `port` is read at each call
 * (tests start the server in beforeAll).
 */
export function serveCaller(port: () => number, token = 'tok') {
  return async (method: string, args: unknown[]) => {
    const response = await fetch(`http://127.0.0.1:${port()}/api/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-trace-token': token },
      body: JSON.stringify({ method, args }),
    });
    const body = decodeAnswer(response.headers.get('content-type'), await response.arrayBuffer());
    return { status: response.status, body: body as { result: unknown } };
  };
}

/** An answer's bytes as Playwright or Node give them (a view, maybe of a shared pool), decoded. */
export function decodeAnswerBytes(contentType: string | undefined, bytes: Uint8Array): unknown {
  return decodeAnswer(contentType ?? null, bytes.slice().buffer);
}

/** An encoded answer's parts as one buffer, as a client receives them. */
export function bytesOf({ parts, byteLength }: EncodedAnswer): Uint8Array<ArrayBuffer> {
  const body = new Uint8Array(byteLength);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.length;
  }
  return body;
}

/** A value as serve mode sends it and the renderer reads it back. */
export function overHttp<T>(value: T): T {
  const encoded = encodeAnswer(value);
  return decodeAnswer(encoded.contentType, bytesOf(encoded).buffer) as T;
}
