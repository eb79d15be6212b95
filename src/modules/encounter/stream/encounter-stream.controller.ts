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
 * The controller authenticates, reads where the client resumes (400 when
 * that is not a non-negative integer) and hands the reply over to
 * EncounterStreamService, which hijacks it (503 while shutting down) and
 * ends it when the client goes or the process stops.
 */
import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Authenticated, UniformUnauthenticated } from '../../accounts/auth/authenticated.guard';
import type { AuthUser } from '../../accounts/auth/auth-user';
import { CurrentUser } from '../../accounts/auth/current-user.decorator';
import { EncounterStreamService } from './encounter-stream.service';
import { resumePosition } from './sse';
import { ApiHeader, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { QueryParam, Refusal } from '../../common/openapi';

@Controller(['api/social/encounter', 'social/encounter'])
@Authenticated()
@UniformUnauthenticated()
export class EncounterStreamController {
  constructor(private readonly streams: EncounterStreamService) {}

  @Get('stream')
  @ApiProduces('text/event-stream')
  @ApiResponse({ status: 200, description: 'server-sent events: the caller’s own encounter messages (docs/api.md)', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'resume after this id', schema: { type: 'string', pattern: '^\\s*\\d{0,15}\\s*$' } })
  @QueryParam('last_event_id', { type: 'string', pattern: '^\\s*\\d{0,15}\\s*$', description: 'resume after this id (when no Last-Event-ID header)' })
  @Refusal(429, 'too many open streams for the user')
  async stream(
    @CurrentUser() user: AuthUser,
    @Headers('last-event-id') lastEventId: unknown,
    @Query('last_event_id') lastEventIdQuery: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const resume = resumePosition(lastEventId, lastEventIdQuery);
    // HEAD (Fastify adds it to every GET): the stream's headers, no stream, which would never answer or end
    if (reply.request.method === 'HEAD') {
      void reply.type('text/event-stream; charset=utf-8').header('cache-control', 'no-cache').send();
      return;
    }
    await this.streams.serve(user.id, resume, reply);
  }
}
