import { parseTypedJson } from '../../src-main/core/api/typed-json';

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
    const text = await response.text();
    return { status: response.status, text, body: parseTypedJson(text) as { result: unknown } };
  };
}
