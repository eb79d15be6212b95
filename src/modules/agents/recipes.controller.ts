/** Shared recipes (social-routes §10): share (a recipe post), list, read, fork, and the marketplace's view. */
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, QueryParam, Refusal, Reply } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { ForkRecipe, type RecipeView, ShareRecipe } from './agents.commands';
import { AgentsQueries } from './agents.queries';
import { FORKED, pagedOf, RECIPE, RECIPES_REPLY, SHARED_RECIPE } from './agents.replies';
import { ShareRecipeRequest } from './agents.requests';

const RECIPES_PAGE = { defaultLimit: 25, cap: 100 };
const MARKETPLACE = { defaultLimit: 20, cap: 50 };

@Controller(socialPaths('recipes'))
export class RecipesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AgentsQueries,
  ) {}

  @Post('share')
  @HttpCode(201)
  @Authenticated()
  @EnvelopeReply(201, SHARED_RECIPE, 'the recipe and the post (content_type recipe) that presents it')
  async share(@CurrentUser() user: AuthUser, @Body() body: ShareRecipeRequest, @RequestContext() context: CommandContext) {
    return ok(
      await this.commands.execute(
        new ShareRecipe(
          {
            author_id: user.id,
            title: body.title.trim(),
            description: body.description ?? '',
            community: body.community?.trim() || null,
            recipe_file: body.recipe_file.trim(),
            persona: body.persona ?? '',
            action_summary: body.action_summary ?? '',
          },
          context,
        ),
      ),
    );
  }

  @Get()
  @OptionalViewer()
  @QueryParam('limit', pageQuerySchemas(RECIPES_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(RECIPES_PAGE).offset)
  @Reply(200, pagedOf(RECIPES_REPLY), 'most forks first')
  async list(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<RecipeView>> {
    const page = pageQuery(query, RECIPES_PAGE);
    const { items, total } = await this.queries.recipes(page);
    return paged(items, total, page);
  }

  @Get(':id')
  @OptionalViewer()
  @EnvelopeReply(200, RECIPE)
  @Refusal(404, '`Recipe not found`')
  async get(@Param('id') id: string): Promise<Envelope<RecipeView>> {
    return ok(await this.queries.recipe(id));
  }

  @Post(':id/fork')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, FORKED, 'every call adds one fork')
  @Refusal(404, '`Recipe not found`')
  async fork(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext) {
    return ok(await this.commands.execute(new ForkRecipe({ recipeId: id, forkedBy: user.id }, context)));
  }
}

@Controller(socialPaths('marketplace'))
export class RecipeMarketplaceController {
  constructor(private readonly queries: AgentsQueries) {}

  @Get('recipes')
  @OptionalViewer()
  @QueryParam('limit', pageQuerySchemas(MARKETPLACE).limit)
  @EnvelopeReply(200, RECIPES_REPLY, 'most forks first (no meta)')
  async recipes(@Query() query: Record<string, unknown>): Promise<Envelope<RecipeView[]>> {
    const { items } = await this.queries.recipes({ limit: pageQuery({ limit: query.limit }, MARKETPLACE).limit, offset: 0 });
    return ok(items);
  }
}
