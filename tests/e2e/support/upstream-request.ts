import { request, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * A test proxy's request to serve mode at `targetPort` for the page's `req`, whose answer is
 * piped back to `res` (a failed upstream ends the page's answer too). The caller sends the body:
 * as it comes (`req.pipe`) or at its own pace.
 */
export function upstreamRequest(
  targetPort: number,
  req: IncomingMessage,
  res: ServerResponse,
): ClientRequest {
  const upstream = request(
    {
      host: '127.0.0.1',
      port: targetPort,
      method: req.method,
      path: req.url,
      headers: req.headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  return upstream;
}
