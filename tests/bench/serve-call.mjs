// A TraceApi call to a bench's serve mode over HTTP, as the renderer makes it (token 'bench'):
// the answer's size in bytes (a figure) and its JSON, typed arrays read back as the renderer
// reads them (src-main/core/api/typed-json.ts: a typed frame; older builds sent base64 in JSON,
// left as such). Plain JS: the bench runs without a TypeScript step.
export async function call(port, method, args) {
  const response = await fetch(`http://127.0.0.1:${port}/api/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-trace-token': 'bench' },
    body: JSON.stringify({ method, args }),
  });
  const body = await response.arrayBuffer();
  const type = response.headers.get('content-type') ?? '';
  const json = type.startsWith('application/vnd.trace-explorer.typed-frame')
    ? typedFrame(body)
    : body.byteLength > 0
      ? JSON.parse(new TextDecoder().decode(body))
      : null;
  return { bytes: body.byteLength, json };
}

const TYPED = { Int32Array, Float64Array, Uint8Array, Uint16Array, Float32Array };

function typedFrame(body) {
  const jsonLength = new DataView(body).getUint32(0, true);
  const dataStart = Math.ceil((4 + jsonLength) / 8) * 8;
  const text = new TextDecoder().decode(new Uint8Array(body, 4, jsonLength));
  return JSON.parse(text, (_key, item) =>
    item && typeof item === 'object' && typeof item.$typed === 'string' && typeof item.at === 'number'
      ? new TYPED[item.$typed](body, dataStart + item.at, item.length)
      : item,
  );
}

/**
 * Resolves when a bench's serve mode says where it serves (its stdout's "serving on"), as a
 * user opens the URL it prints; rejects if it exits first (another bench's server on `port`).
 */
export function servingOn(server, port) {
  return new Promise((resolve, reject) => {
    let said = '';
    server.stdout.on('data', (chunk) => {
      said += chunk;
      if (said.includes('serving on')) resolve();
    });
    server.once('exit', () =>
      reject(new Error(`serve mode exited before serving: port ${port} taken?`)),
    );
  });
}
