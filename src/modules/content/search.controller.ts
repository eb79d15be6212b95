/**
 * GET /search (social-routes §8): posts, users or communities whose text
 * holds the query, any case. The query is data: taken literally (regular
 * expression characters escaped), never an operator.
 */
import { Controller, Get, Query } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import { OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { Viewer } from '../accounts/auth/current-user.decorator';
import { type Envelope, ok } from '../common/envelope';
import { EnvelopeReply, list, oneOf, QueryParam, Refusal, str } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { socialPaths } from '../common/social-paths';
import { USER_VIEW } from '../accounts/accounts.replies';
import { ContentQueries } from './content.queries';
import { COMMUNITY_VIEW, POST_VIEW } from './content.replies';

const SEARCH_PAGE = { defaultLimit: 20, cap: 100 };
const TYPES = ['posts', 'users', 'communities'] as const;

/** `q`: 1 to 200 characters after trimming (400 `q parameter required`). */
export function searchQuery(value: unknown): string {
  const q = typeof value === 'string' ? value.trim() : '';
  if (q === '') throw new DomainError('invalid', 'q parameter required');
  if ([...q].length > 200) throw new DomainError('invalid', 'q must be at most 200 characters');
  return q;
}

@Controller(socialPaths())
export class SearchController {
  constructor(private readonly queries: ContentQueries) {}

  @Get('search')
  @RateLimited('search')
  @OptionalViewer()
  @QueryParam('q', str({ minLength: 1, maxLength: 200, description: 'required; matched as text, any case' }))
  @QueryParam('type', oneOf(TYPES, { default: 'posts' }))
  @QueryParam('limit', pageQuerySchemas(SEARCH_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(SEARCH_PAGE).offset)
  @EnvelopeReply(200, { anyOf: [list(POST_VIEW), list(USER_VIEW), list(COMMUNITY_VIEW)] }, 'a list, no meta; posts highest score first')
  @Refusal(400, '`q parameter required`')
  async search(@Viewer() viewer: AuthUser | null, @Query() query: Record<string, unknown>): Promise<Envelope<unknown[]>> {
    const q = searchQuery(query.q);
    const type = query.type === undefined || query.type === '' ? 'posts' : query.type;
    if (typeof type !== 'string' || !(TYPES as readonly string[]).includes(type)) throw new DomainError('invalid', `type must be one of ${TYPES.join(', ')}`);
    const page = pageQuery(query, SEARCH_PAGE);
    if (type === 'users') return ok(await this.queries.searchUsers(q, page));
    if (type === 'communities') return ok(await this.queries.searchCommunities(q, page));
    return ok(await this.queries.searchPosts(q, page, viewer?.id ?? null));
  }
}
