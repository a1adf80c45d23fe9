import { get, type ClientRequest } from 'node:http';
import type { HostEvent } from '../../../src-main/core/api/trace-api';

export interface HostEventsWatcher {
  /** resolves with the first host event (heard since the watcher started) that `matches` */
  next(matches: (event: HostEvent) => boolean, timeoutMs: number): Promise<HostEvent>;
  close(): void;
}

/**
 * Serve mode's own event stream, read beside the page (not through its proxy): how a test knows
 * what serve mode said while the page's stream was cut, without asking serve mode anything the
 * page might ask too.
 */
export async function watchHostEvents(port: number, token: string): Promise<HostEventsWatcher> {
  const heard: HostEvent[] = [];
  const waiting = new Set<() => void>();
  let request!: ClientRequest;
  await new Promise<void>((connected, fail) => {
    request = get(
      `http://127.0.0.1:${port}/api/events?token=${encodeURIComponent(token)}`,
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          let end: number;
          while ((end = text.indexOf('\n\n')) >= 0) {
            const message = text.slice(0, end);
            text = text.slice(end + 2);
            if (!message.startsWith('event: host\n')) continue;
            heard.push(JSON.parse(message.slice(message.indexOf('data: ') + 6)) as HostEvent);
            for (const wake of waiting) wake();
          }
        });
        connected();
      },
    );
    request.on('error', fail);
  });
  return {
    next: (matches, timeoutMs) =>
      new Promise((found, fail) => {
        const look = () => {
          const event = heard.find(matches);
          if (!event) return;
          waiting.delete(look);
          clearTimeout(timer);
          found(event);
        };
        const timer = setTimeout(() => {
          waiting.delete(look);
          fail(new Error(`no such host event in ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.add(look);
        look();
      }),
    close: () => request.destroy(),
  };
}
