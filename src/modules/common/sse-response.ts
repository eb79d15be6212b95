/**
 * One hijacked HTTP response carrying server-sent events: Fastify stops
 * managing it, and this class alone touches the raw socket. The encounter and
 * notification stream and the OpenAI-compatible streaming replies both write
 * through it.
 */
import type { FastifyReply } from 'fastify';

export class SseResponse {
  private readonly raw: FastifyReply['raw'];

  constructor(private readonly reply: FastifyReply) {
    this.raw = reply.raw;
  }

  /** Takes the reply over from Fastify and sends the event-stream headers. */
  open(): void {
    void this.reply.hijack();
    this.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      // the socket is not reused after a stream: ending it on shutdown frees it at once
      connection: 'close',
    });
    this.raw.socket?.setNoDelay(true);
  }

  /** Writes a chunk; waits for `drain` when the socket buffer is full; false once the response is gone. */
  readonly write = (chunk: string): Promise<boolean> => {
    const raw = this.raw;
    if (raw.destroyed || raw.writableEnded) return Promise.resolve(false);
    if (raw.write(chunk)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        raw.off('drain', onDrain);
        raw.off('close', onClose);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      raw.once('drain', onDrain);
      raw.once('close', onClose);
    });
  };

  /** true once the client went (the connection closed) */
  get gone(): boolean {
    return this.raw.destroyed;
  }

  onClose(listener: () => void): void {
    this.raw.once('close', listener);
  }

  end(): void {
    if (!this.raw.writableEnded) this.raw.end();
  }
}
