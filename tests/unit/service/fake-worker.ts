import { EventEmitter } from 'node:events';
import type { IngestWorker } from '../../../src-main/ingest/ingest-connection';
import type { FileCallMessage, IngestMessage } from '../../../src-main/ingest/ingest-protocol';

/**
 * A file's worker that a test drives by hand: it says what it posts, the test says what the
 * worker answers, and the test can make it crash or exit as a thread would.
 */
export class FakeWorker extends EventEmitter implements IngestWorker {
  readonly posted: FileCallMessage[] = [];
  terminated = 0;
  postMessage(message: FileCallMessage): void {
    this.posted.push(message);
  }
  terminate(): void {
    this.terminated += 1;
  }
  say(message: IngestMessage): void {
    this.emit('message', message);
  }
  crash(message: string): void {
    this.emit('error', new Error(message));
  }
  exit(code: number): void {
    this.emit('exit', code);
  }
}
