/**
 * /api/skills (SPEC §4.2): skills (SKILL.md folders) listed, read, ingested,
 * discovered in this node's folders or a GitHub repository, and removed.
 */
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { CommandContext } from '../common/command-executor';
import { PathParam, Refusal, Reply } from '../common/openapi';
import { RequestContext } from '../common/request-context';
import { DiscoverGithubSkills, DiscoverLocalSkills, IngestSkill, RemoveSkill } from './engine.commands';
import { SKILL, SKILL_DISCOVERY, SKILL_INGESTED, SKILL_LIST, SKILL_REMOVED } from './engine.replies';
import { DiscoverGithubDto, DiscoverLocalDto, IngestSkillDto, SKILL_NAME_SCHEMA } from './engine.requests';
import { EngineSkillsQueries } from './engine-skills.queries';
import { SKILL_NAME } from './skill-file';

function skillName(name: string): string {
  if (!SKILL_NAME.test(name) || name.length > 64) throw new DomainError('invalid', 'skill_name must be 1-64 lower-case letters, digits and single hyphens');
  return name;
}

@Controller('api/skills')
export class EngineSkillsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: EngineSkillsQueries,
  ) {}

  @Get('list')
  @Reply(200, SKILL_LIST)
  @Authenticated()
  list() {
    return this.queries.list();
  }

  @Post('ingest')
  @HttpCode(200)
  @Reply(200, SKILL_INGESTED, 'the skill as recorded (`changed: false` when the same SKILL.md was there)')
  @Refusal(403, 'a role other than operator or admin, or a path outside SKILLS_DIRS')
  @Refusal(404, 'no such folder or no SKILL.md in it')
  @Authenticated('operator', 'admin')
  ingest(@Body() body: IngestSkillDto, @RequestContext() context: CommandContext): Promise<unknown> {
    const skillMd = body.skill_md ?? null;
    const path = body.path ?? null;
    if ((skillMd === null) === (path === null)) throw new DomainError('invalid', 'send exactly one of skill_md (the SKILL.md text) and path (its folder inside SKILLS_DIRS)');
    return this.commands.execute(new IngestSkill(skillMd !== null ? { skillMd } : { folder: path as string }, context));
  }

  @Post('discover/local')
  @HttpCode(200)
  @Reply(200, SKILL_DISCOVERY)
  @Refusal(409, 'no skill folders are configured (SKILLS_DIRS)')
  @Authenticated('operator', 'admin')
  discoverLocal(@Body() body: DiscoverLocalDto, @RequestContext() context: CommandContext): Promise<unknown> {
    return this.commands.execute(new DiscoverLocalSkills({ ingest: body.ingest === true }, context));
  }

  @Post('discover/github')
  @HttpCode(200)
  @Reply(200, SKILL_DISCOVERY)
  @Refusal(404, 'no such repository or ref (or not visible with the token)')
  @Refusal(502, 'the GitHub API answered with an error')
  @Refusal(503, 'the GitHub API cannot be reached, or its rate limit is used up')
  @Authenticated('operator', 'admin')
  discoverGithub(@Body() body: DiscoverGithubDto, @RequestContext() context: CommandContext): Promise<unknown> {
    return this.commands.execute(
      new DiscoverGithubSkills({ repository: body.repository, ref: body.ref ?? null, path: body.path?.replace(/^\/+|\/+$/g, '') || null, ingest: body.ingest === true }, context),
    );
  }

  @Get(':skill_name')
  @Reply(200, SKILL)
  @PathParam('skill_name', SKILL_NAME_SCHEMA)
  @Refusal(404, 'no such skill')
  @Authenticated()
  skill(@Param('skill_name') name: string) {
    return this.queries.skill(skillName(name));
  }

  @Delete(':skill_name')
  @Reply(200, SKILL_REMOVED)
  @PathParam('skill_name', SKILL_NAME_SCHEMA)
  @Refusal(404, 'no such skill')
  @Authenticated('operator', 'admin')
  remove(@Param('skill_name') name: string, @RequestContext() context: CommandContext): Promise<unknown> {
    return this.commands.execute(new RemoveSkill({ name: skillName(name) }, context));
  }
}
