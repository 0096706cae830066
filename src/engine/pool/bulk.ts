/**
 * Rendered files travel from a render process to the pool over a pipe of their own (fd 4), not in
 * the IPC message: Node's IPC with 'advanced' serialisation gathers a large message by
 * concatenating every 64 KB chunk onto what came before, which made a 2 MB PNG cost about 10 ms
 * more through the pool than in process. Here the answer names each file's length and the bytes
 * are copied once into a buffer of that size. The process writes a render's bytes (and waits for
 * them to reach the pipe) before it sends the answer, one render at a time, so the stream holds
 * exactly the answered files, in order.
 */
import type { Readable, Writable } from 'node:stream';

/** The fd of the bulk pipe in the render process (stdio index). */
export const BULK_FD = 4;

/** Pool side: hands out the next `length` bytes of the stream, in the order asked. */
export class BulkReader {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private readonly waiting: { length: number; resolve(bytes: Buffer): void; reject(error: Error): void }[] =
    [];
  private ended: Error | null = null;

  constructor(stream: Readable) {
    stream.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      this.drain();
    });
    const end = () => this.fail(new Error('the render process closed its bulk pipe'));
    stream.on('end', end);
    stream.on('error', end);
  }

  read(length: number): Promise<Buffer> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      this.waiting.push({ length, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    for (let next = this.waiting[0]; next && next.length <= this.buffered; next = this.waiting[0]) {
      this.waiting.shift();
      next.resolve(this.take(next.length));
    }
  }

  private take(length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const chunk = this.chunks[0] as Buffer;
      const used = Math.min(chunk.length, length - filled);
      chunk.copy(out, filled, 0, used);
      filled += used;
      if (used === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(used);
    }
    this.buffered -= length;
    return out;
  }

  private fail(error: Error): void {
    this.ended = error;
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
  }
}

/** Render process side: writes the files' bytes and resolves once the pipe has taken them. */
export function writeBulk(stream: Writable, parts: readonly Uint8Array[]): Promise<void> {
  return new Promise((resolve, reject) => {
    if (parts.length === 0) return resolve();
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      stream.write(part, (error) => {
        if (error) reject(error);
        else if (last) resolve();
      });
    });
  });
}
