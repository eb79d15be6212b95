/**
 * GET /api/social/encounter/stream (and /social/encounter/stream): the
 * caller's encounter messages (SPEC §6: `<topic>.<user_id>` delivered only to
 * that user) as server-sent events.
 *
 * - `id:` is the event's global log position, `event:` the base topic,
 *   `data:` {topic: per-user topic, payload, at}.
 * - Resumable: with Last-Event-ID (or `?last_event_id=`) the messages after
 *   that id are sent first, from the inbox read model, then live; without
 *   it, messages from now on (after the store's head position).
 * - `: heartbeat` every SVC_ENCOUNTER_STREAM_HEARTBEAT_SEC seconds; each also
 *   polls the inbox, so a message the bus lost still arrives.
 *
 * The reply is hijacked (Fastify stops managing it); the connection ends when
 * the client goes, or when the process shuts down (EncounterStreamService).
 */
import { BadRequestException, Controller, Get, Headers, Inject, Logger, Query, Res, ServiceUnavailableException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../../config/config';
import { Authenticated, UniformUnauthenticated } from '../../accounts/auth/authenticated.guard';
import type { AuthUser } from '../../accounts/auth/auth-user';
import { CurrentUser } from '../../accounts/auth/current-user.decorator';
import { EncounterStreamService } from './encounter-stream.service';
import { InvalidLastEventIdError, resumePosition, SSE_CONNECTED } from './sse';
import { StreamSession } from './stream-session';

type RawResponse = FastifyReply['raw'];

/** Writes a chunk; waits for `drain` when the socket buffer is full; false once the response is gone. */
function writerOf(raw: RawResponse): (chunk: string) => Promise<boolean> {
  return (chunk) => {
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
}

@Controller(['api/social/encounter', 'social/encounter'])
@Authenticated()
@UniformUnauthenticated()
export class EncounterStreamController {
  private readonly logger = new Logger('EncounterStream');

  constructor(
    private readonly streams: EncounterStreamService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('stream')
  async stream(
    @CurrentUser() user: AuthUser,
    @Headers('last-event-id') lastEventId: unknown,
    @Query('last_event_id') lastEventIdQuery: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    let resume: number | null;
    try {
      resume = resumePosition(lastEventId, lastEventIdQuery);
    } catch (error) {
      if (error instanceof InvalidLastEventIdError) throw new BadRequestException(error.message);
      throw error;
    }
    if (!this.streams.accepting) throw new ServiceUnavailableException('shutting down');
    const start = resume ?? (await this.streams.headPosition());

    const raw = reply.raw;
    const userId = user.id;
    const session = new StreamSession(
      {
        write: writerOf(raw),
        readInbox: (after, limit) => this.streams.readInbox(userId, after, limit),
        waitForInbox: (position) => this.streams.waitForInbox(position),
        onError: (error) => this.logger.warn(`inbox read failed: ${error instanceof Error ? error.message : String(error)}`),
      },
      start,
    );

    void reply.hijack();
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      // the socket is not reused after a stream: ending it on shutdown frees it at once
      connection: 'close',
    });
    raw.socket?.setNoDelay(true);
    // connect and greet in one tick: once the client sees `: connected`, live messages reach it
    const disconnect = this.streams.connect(userId, {
      deliver: (message) => session.live(message),
      end: () => {
        session.close();
        if (!raw.writableEnded) raw.end();
      },
    });
    raw.write(SSE_CONNECTED);
    const heartbeat = setInterval(() => void session.heartbeat(), this.config.encounter.streamHeartbeatSec * 1000);
    heartbeat.unref();
    const cleanUp = () => {
      clearInterval(heartbeat);
      session.close();
      disconnect();
    };
    raw.once('close', cleanUp);
    // the client may have gone while the head position was read: 'close' already fired
    if (raw.destroyed) return cleanUp();
    // the reply is hijacked: a failure here must end the stream, not reach the exception filter
    await session.start().catch((error: unknown) => {
      this.logger.warn(`stream failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!raw.writableEnded) raw.end();
    });
  }
}
