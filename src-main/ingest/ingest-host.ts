import type { OpenOptions } from '../core/open/open-trace-file';
import type {
  FileCallMessage,
  HostInMessage,
  HostOutMessage,
  IngestMessage,
  IngestRequest,
} from './ingest-protocol';
import { runIngestSession, type SessionPort } from './ingest-session';

/** A host thread's side of its channel to main: `parentPort` in the thread. */
export interface HostPort {
  postMessage(message: HostOutMessage): void;
  on(event: 'message', listener: (message: HostInMessage) => void): unknown;
  /** the next message main sent, without waiting (receiveMessageOnPort), while a file is read */
  receive(): HostInMessage | undefined;
}

/**
 * One thread holding many small files (the pool's host, ingest-pool.ts): each file's session
 * is the one a file's own worker runs (ingest-session.ts), on a port of its own that tags what
 * it says with its session number. Files are read one after the other, in the order asked;
 * while one is read, calls on the files already open are answered between its reading steps
 * (whenever the reader takes calls, as it does for previews), else right after it.
 */
export function runIngestHost(
  port: HostPort,
  setup: Pick<OpenOptions, 'formats' | 'partReader'> = {},
): void {
  /** each open file's call listener (its session's), by session */
  const listeners = new Map<number, (call: FileCallMessage) => void>();
  /** sessions asked for and not ended (closed or cancelled) */
  const live = new Set<number>();
  let queue: { session: number; request: IngestRequest }[] = [];
  /** the file being read: calls on it wait here until its session takes them */
  let reading: { session: number; calls: FileCallMessage[] } | null = null;
  let scheduled = false;

  const take = (message: HostInMessage) => {
    if (message.type === 'open') {
      live.add(message.session);
      queue.push(message);
      readNext();
    } else if (message.type === 'end') {
      // its store goes with its listener (the warm-up's last step lets go of it too)
      live.delete(message.session);
      listeners.delete(message.session);
      queue = queue.filter((open) => open.session !== message.session);
    } else if (reading?.session === message.session) reading.calls.push(message.call);
    else listeners.get(message.session)?.(message.call);
  };

  const sessionPort = (session: number): SessionPort => ({
    postMessage(message: IngestMessage) {
      // a cancelled file's open goes on to its end here, but says nothing more
      if (!live.has(session)) return;
      if (message.type === 'failed') live.delete(session);
      port.postMessage({ session, message });
    },
    on(_event, listener) {
      if (!live.has(session)) return;
      listeners.set(session, listener);
      // calls that came while it was read and were not taken between its steps
      const waiting = reading?.session === session ? reading.calls.splice(0) : [];
      for (const call of waiting) listener(call);
    },
    receive() {
      for (let message = port.receive(); message; message = port.receive()) take(message);
      return reading?.session === session ? reading.calls.shift() : undefined;
    },
  });

  // one file per turn of the event loop: what came meanwhile is handled between files
  function readNext(): void {
    if (scheduled || reading !== null || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const next = queue.shift();
      if (!next) return;
      reading = { session: next.session, calls: [] };
      try {
        runIngestSession(sessionPort(next.session), next.request, setup);
      } finally {
        reading = null;
        if (!live.has(next.session)) listeners.delete(next.session);
        readNext();
      }
    });
  }

  port.on('message', take);
}
