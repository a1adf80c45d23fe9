import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { upstreamRequest } from './upstream-request';

export interface ThrottlingProxy {
  port: number;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of serve mode that passes everything through, reading upload bodies
 * (/api/upload) at `bytesPerSecond`: a slow link without a hook in the server or the page. A
 * page that aborts its upload breaks the proxy's upstream request too, as it would the server's.
 */
export async function startThrottlingProxy(
  targetPort: number,
  bytesPerSecond: number,
): Promise<ThrottlingProxy> {
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const upstream = upstreamRequest(targetPort, req, res);
    if (!req.url?.startsWith('/api/upload')) return void req.pipe(upstream);
    let ended = false;
    req.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      // the next chunk is read once this one's share of a second has passed
      req.pause();
      setTimeout(() => req.resume(), (chunk.length / bytesPerSecond) * 1000);
    });
    req.on('end', () => {
      ended = true;
      upstream.end();
    });
    req.on('close', () => {
      if (!ended) upstream.destroy();
    });
  };
  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
