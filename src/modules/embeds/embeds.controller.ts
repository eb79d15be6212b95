/**
 * The embedding routes (SPEC §4.8, docs/api.md "Embedding"). Each answers
 * HTML or JavaScript, not JSON, and is open: the pages themselves are public,
 * and what they do needs a credential (a verified token, a guest registered
 * on mount, or the site's API key).
 *
 * - GET /agents/{agent_name}?embed=true: the chat page for an iframe; with
 *   `token` (and optionally `user_id`, which must be the token's user) it
 *   acts as that user, a bad one is refused with a readable page (401/403).
 * - GET /agents/{agent_name}?plugin=1: the anonymous audio-only page.
 * - GET /widget.js, GET /embed/widget-object.js: the two scripts.
 *
 * The pages replace the node's no-framing headers with their own policy
 * (embed-pages.ts): framed by EMBED_FRAME_ANCESTORS (any site by default),
 * their inline script and style only, calls to this node only.
 */
import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { JwtStrategy } from '../accounts/auth/jwt.strategy';
import { TokenService } from '../accounts/auth/token.service';
import { PathParam, QueryParam } from '../common/openapi';
import { agentSlug } from './agent-names';
import { WIDGET_OBJECT_SCRIPT } from './assets/widget-object.script';
import { WIDGET_SCRIPT } from './assets/widget.script';
import { agentPage, PAGE_PERMISSIONS, pageSecurityPolicy, type PageMode, refusalPage } from './embed-pages';

type RawQuery = Record<string, unknown>;

/** The first value of a query parameter (a repeated one is an array), or null. */
const param = (query: RawQuery, name: string): string | null => {
  const value = [query[name]].flat()[0];
  return typeof value === 'string' && value !== '' ? value : null;
};
const yes = (value: string | null): boolean => value === '1' || value === 'true';

const HTML = { 'text/html': { schema: { type: 'string' as const } } };
const JAVASCRIPT = { 'application/javascript': { schema: { type: 'string' as const } } };

@Controller()
export class EmbedsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: TokenService,
    private readonly jwt: JwtStrategy,
  ) {}

  @Get('agents/:agent_name')
  @ApiProduces('text/html')
  @PathParam('agent_name', { type: 'string', description: 'the agent’s name; its slug is the conversation’s prompt_id' })
  @QueryParam('embed', { enum: ['true', '1'], description: 'the full chat page for an iframe (also served without a mode)' })
  @QueryParam('plugin', { enum: ['1', 'true'], description: 'the anonymous audio-only page: registers a guest when it mounts' })
  @QueryParam('token', { type: 'string', description: 'a JWT: the chat page acts as its user (not with plugin)' })
  @QueryParam('user_id', { type: 'string', description: 'must be the token’s user' })
  @QueryParam('email', { type: 'string', maxLength: 254, description: 'shown as who is chatting; not a credential' })
  @QueryParam('companionAppInstalled', { enum: ['true', 'false'], description: 'accepted; the page is the same either way' })
  @ApiResponse({ status: 200, description: 'the page', content: HTML })
  @ApiResponse({ status: 401, description: 'a bad or expired token, or user_id without one: a page saying so', content: HTML })
  @ApiResponse({ status: 403, description: 'user_id is not the token’s user: a page saying so', content: HTML })
  @ApiResponse({ status: 404, description: 'a name with no letter or digit: a page saying so', content: HTML })
  async page(@Param('agent_name') agentName: string, @Query() query: RawQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    this.pageHeaders(reply);
    const promptId = agentSlug(agentName);
    if (!promptId) return this.refuse(reply, 404, 'There is no agent by that name: an agent’s name needs a letter or a digit.');
    const mode: PageMode = yes(param(query, 'plugin')) ? 'plugin' : 'chat';
    const name = agentName.trim();
    if (mode === 'plugin') return agentPage({ mode, agentName: name, promptId, token: null, email: null });
    const token = param(query, 'token');
    const userId = param(query, 'user_id');
    if (!token) {
      if (userId) return this.refuse(reply, 401, 'This link names a user but carries no sign-in token. Ask the site for a new link.');
      return agentPage({ mode, agentName: name, promptId, token: null, email: null });
    }
    const user = await this.verify(token);
    if (!user) return this.refuse(reply, 401, 'This sign-in link is invalid or has expired. Ask the site for a new link.');
    if (userId && userId !== user) return this.refuse(reply, 403, 'This sign-in link is for another user.');
    const email = param(query, 'email');
    return agentPage({ mode, agentName: name, promptId, token, email: email && email.length <= 254 ? email : null });
  }

  @Get('widget.js')
  @ApiProduces('application/javascript')
  @ApiResponse({ status: 200, description: 'the chat widget script (SPEC §2.8): `AgentWidget.init({apiKey, ...})`', content: JAVASCRIPT })
  widget(@Res({ passthrough: true }) reply: FastifyReply): string {
    this.scriptHeaders(reply);
    return WIDGET_SCRIPT;
  }

  @Get('embed/widget-object.js')
  @ApiProduces('application/javascript')
  @ApiResponse({ status: 200, description: 'the widget-object script: `new AgentWidgetObject({agentName, authToken, userId, emailAddress})`', content: JAVASCRIPT })
  widgetObject(@Res({ passthrough: true }) reply: FastifyReply): string {
    this.scriptHeaders(reply);
    return WIDGET_OBJECT_SCRIPT;
  }

  /** The token's user id when it is valid, unexpired, not revoked and its user exists; else null. */
  private async verify(token: string): Promise<string | null> {
    try {
      return (await this.jwt.validate(this.tokens.verify(token))).id;
    } catch {
      return null;
    }
  }

  private refuse(reply: FastifyReply, status: number, message: string): string {
    void reply.status(status);
    return refusalPage(message);
  }

  private pageHeaders(reply: FastifyReply): void {
    // the node's no-framing policy (browser-policy.ts) is replaced, not doubled: a browser enforces every CSP it gets
    void reply
      .removeHeader('x-frame-options')
      .type('text/html; charset=utf-8')
      .header('content-security-policy', pageSecurityPolicy(this.config.http.embedFrameAncestors))
      .header('permissions-policy', PAGE_PERMISSIONS)
      // the page may hold a token: never cached
      .header('cache-control', 'no-store');
  }

  /** Scripts other sites load with <script src>: readable cross-origin, cached briefly. */
  private scriptHeaders(reply: FastifyReply): void {
    void reply
      .type('application/javascript; charset=utf-8')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('cache-control', 'public, max-age=300');
  }
}
