import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { upstreamRequest } from './upstream-request';

export interface ThrottlingProxy {
  port: number;
  /** uploads whose every byte went through (an aborted one never counts) */
  uploadsEnded(): number;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of serve mode that passes everything through, reading upload bodies
 * (/api/upload) at `bytesPerSecond`: a slow link without a hook in the server or the page. A
 * page that aborts its upload breaks the proxy's upstream request too, as it would the server's.
 * `holdAfterBytes`: an upload stops there, held until the page gives up on it (it can never
 * end on its own: what the page does meanwhile cannot be waiting for it).
 */
export async function startThrottlingProxy(
  targetPort: number,
  bytesPerSecond: number,
  options: { holdAfterBytes?: number } = {},
): Promise<ThrottlingProxy> {
  let uploadsEnded = 0;
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const upstream = upstreamRequest(targetPort, req, res);
    if (!req.url?.startsWith('/api/upload')) return void req.pipe(upstream);
    let ended = false;
    let passed = 0;
    req.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      passed += chunk.length;
      // the next chunk is read once this one's share of a second has passed
      req.pause();
      if (passed >= (options.holdAfterBytes ?? Infinity)) return;
      setTimeout(() => req.resume(), (chunk.length / bytesPerSecond) * 1000);
    });
    req.on('end', () => {
      ended = true;
      uploadsEnded++;
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
    uploadsEnded: () => uploadsEnded,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
