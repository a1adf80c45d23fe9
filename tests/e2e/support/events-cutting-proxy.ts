import {
  createServer,
  type ClientRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { upstreamRequest } from './upstream-request';

export interface EventsCuttingProxy {
  port: number;
  /** event streams the page has had answered through the proxy so far */
  streamsAnswered(): number;
  /**
   * Breaks every event stream now, as a network hiccup would, and holds the page's new ones
   * (the browser reconnects on its own) unanswered until `reconnect`: what serve mode says
   * meanwhile never reaches the page.
   */
  cut(): void;
  /** lets the held event streams through to serve mode */
  reconnect(): void;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of serve mode that passes everything through and can cut the page's
 * event stream (/api/events): how a test breaks the stream without a hook in the server.
 */
export async function startEventsCuttingProxy(targetPort: number): Promise<EventsCuttingProxy> {
  const streams = new Set<{ page: ServerResponse; upstream: ClientRequest }>();
  let held: (() => void)[] | null = null;
  let answered = 0;

  const forward = (req: IncomingMessage, res: ServerResponse): ClientRequest => {
    const upstream = upstreamRequest(targetPort, req, res);
    req.pipe(upstream);
    return upstream;
  };
  const openStream = (req: IncomingMessage, res: ServerResponse) => {
    answered += 1;
    const stream = { page: res, upstream: forward(req, res) };
    streams.add(stream);
    res.on('close', () => {
      streams.delete(stream);
      stream.upstream.destroy();
    });
  };

  const server = createServer((req, res) => {
    if (!req.url?.startsWith('/api/events')) return void forward(req, res);
    if (held) held.push(() => openStream(req, res));
    else openStream(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    streamsAnswered: () => answered,
    cut() {
      held ??= [];
      for (const { page, upstream } of streams) {
        page.socket?.destroy();
        upstream.destroy();
      }
      streams.clear();
    },
    reconnect() {
      const waiting = held ?? [];
      held = null;
      for (const open of waiting) open();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
