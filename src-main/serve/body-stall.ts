import type { IncomingMessage } from 'node:http';
import { HttpRefusal } from './http-refusal';

/**
 * How long a request body may send nothing before it is dropped. A client that stops after 10
 * bytes of a 256 MiB upload held its room and the one big-body slot for as long as it kept the
 * connection: every other large upload answered 503 meanwhile.
 */
export const BODY_IDLE_MS = 30_000;

/**
 * Watches a body being read: when no bytes come for `idleMs`, `onStall` gets a coded 408 and
 * the connection is ended, so that whatever the read held (its room, its slot) is let go.
 * `alive` is called on each chunk; `stop` when the body is read or refused.
 */
export function watchStall(
  req: IncomingMessage,
  idleMs: number,
  onStall: (refusal: HttpRefusal) => void,
): { alive(): void; stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      onStall(
        new HttpRefusal(
          408,
          'serve/body-stalled',
          `nothing arrived for ${Math.round(idleMs / 1000)} s: the upload was dropped`,
        ),
      );
      req.destroy();
    }, idleMs);
  };
  arm();
  return {
    alive: arm,
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
