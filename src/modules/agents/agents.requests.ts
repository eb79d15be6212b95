/**
 * Request bodies of the agents context (class-validator DTOs: unknown fields
 * are dropped; a wrong type or a missing field is a 400 naming the field) and
 * the readers of its query strings.
 */
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNumber, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { TREE_NAMES } from '../../aggregates/agents/agent';
import { NAME_MODES, type NameMode } from '../../aggregates/agents/agent-names';
import { DomainError } from '../../aggregates/shared/domain-error';
import { IsName } from '../common/body-fields';
import type { JsonSchema } from '../common/openapi';

export class CreateAgentRequest {
  @IsOptional()
  @IsString()
  @MaxLength(31)
  local_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(47)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  agent_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  personality?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 50, { each: true, message: 'each skill must be 1-50 characters' })
  skills?: string[];
}

export class ValidateNameRequest {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @IsIn(NAME_MODES)
  mode?: NameMode;

  @IsOptional()
  @IsString()
  @MaxLength(50)
  handle?: string;
}

export class SpecializeRequest {
  @IsIn(TREE_NAMES, { message: `path must be one of: ${TREE_NAMES.join(', ')}` })
  path!: string;
}

export class CollaborateRequest {
  @IsString()
  @Length(1, 100)
  other_agent_id!: string;

  @IsOptional()
  @IsString()
  @Length(1, 50)
  @IsName()
  type?: string;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  quality_score?: number;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  task_id?: string;
}

export class CreateTaskRequest {
  @IsString()
  @Length(1, 100, { message: 'post_id is required' })
  post_id!: string;

  @IsString()
  @Length(1, 5000, { message: 'task_description is required (at most 5000 characters)' })
  task_description!: string;
}

export class AssignTaskRequest {
  @IsString()
  @Length(1, 100, { message: 'assignee_id is required' })
  assignee_id!: string;
}

export class CompleteTaskRequest {
  @IsOptional()
  @IsString()
  @MaxLength(20000)
  result?: string;

  /** false records the task as failed */
  @IsOptional()
  @IsBoolean()
  success?: boolean;
}

export class ShareRecipeRequest {
  @IsString()
  @Length(1, 500, { message: 'recipe_file is required' })
  recipe_file!: string;

  @IsString()
  @Length(1, 300, { message: 'title is required' })
  title!: string;

  @IsOptional()
  @IsString()
  @MaxLength(20000)
  description?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  community?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  persona?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  action_summary?: string;
}

// --- query strings

export const SUGGEST_COUNT = { defaultLimit: 5, cap: 20 };

export const SUGGEST_QUERY_SCHEMAS: Record<string, JsonSchema> = {
  count: { type: 'integer', minimum: 1, default: SUGGEST_COUNT.defaultLimit, description: `capped at ${SUGGEST_COUNT.cap}` },
  mode: { enum: [...NAME_MODES], default: 'global' },
  handle: { type: 'string', description: 'for mode=local: the owner handle that completes the global name' },
};

/** `count` (d5≤20), `mode` (global|local, default global) and `handle` of /agents/suggest-names. */
export function suggestQuery(query: Record<string, unknown>): { count: number; mode: NameMode; handle: string | null } {
  const rawCount = query.count;
  let count = SUGGEST_COUNT.defaultLimit;
  if (rawCount !== undefined && rawCount !== '') {
    if (typeof rawCount !== 'string' || !/^\d{1,4}$/.test(rawCount.trim())) throw new DomainError('invalid', 'count must be a positive integer');
    count = Math.max(1, Math.min(Number(rawCount), SUGGEST_COUNT.cap));
  }
  const mode = query.mode === undefined || query.mode === '' ? 'global' : query.mode;
  if (mode !== 'global' && mode !== 'local') throw new DomainError('invalid', 'mode must be global or local');
  const handle = typeof query.handle === 'string' && query.handle.trim() ? query.handle.trim().toLowerCase() : null;
  return { count, mode, handle };
}
