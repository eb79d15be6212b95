/**
 * Requests of the goals routes: the body of POST /goals (unknown fields are
 * dropped; wrong types and missing fields are 400 naming the field) and the
 * goal id of GET /goals/:id.
 */
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_ATTEMPTS, MAX_DESCRIPTION_CHARS, MAX_SUBTASKS, MAX_TIMEOUT_SEC } from '../../aggregates/goals/goal';
import { invalid } from '../common/body-fields';
import type { JsonSchema } from '../common/openapi';
import type { GoalRequest } from './goals.commands';

export const MAX_GOAL_CHARS = 8000;
export const DEFAULT_TIMEOUT_SEC = 120;
export const DEFAULT_MAX_ATTEMPTS = 3;

export class CreateGoalDto {
  /** optional for an authenticated caller (the credential names the user); the local guest must give it */
  @IsOptional()
  @IsString({ message: 'user_id must be a string' })
  @Matches(/^[A-Za-z0-9_.:@-]{1,128}$/, { message: 'user_id must be 1-128 characters of letters, digits, _ . : @ -' })
  user_id?: string;

  @IsString({ message: 'goal must be a string' })
  @Matches(/\S/, { message: 'goal must not be empty' })
  @MaxLength(MAX_GOAL_CHARS, { message: `goal must be at most ${MAX_GOAL_CHARS} characters` })
  goal!: string;

  @IsOptional()
  @IsArray({ message: 'subtasks must be a list of strings' })
  @ArrayMinSize(1, { message: 'subtasks must hold at least 1 item when given' })
  @ArrayMaxSize(MAX_SUBTASKS, { message: `subtasks must hold at most ${MAX_SUBTASKS} items` })
  @IsString({ each: true, message: 'subtasks must be a list of strings' })
  @MinLength(1, { each: true, message: 'each subtask must not be empty' })
  @Matches(/\S/, { each: true, message: 'each subtask must not be empty' })
  @MaxLength(MAX_DESCRIPTION_CHARS, { each: true, message: `each subtask must be at most ${MAX_DESCRIPTION_CHARS} characters` })
  subtasks?: string[];

  @IsOptional()
  @IsInt({ message: `timeout_sec must be an integer from 1 to ${MAX_TIMEOUT_SEC}` })
  @Min(1, { message: `timeout_sec must be an integer from 1 to ${MAX_TIMEOUT_SEC}` })
  @Max(MAX_TIMEOUT_SEC, { message: `timeout_sec must be an integer from 1 to ${MAX_TIMEOUT_SEC}` })
  timeout_sec?: number;

  @IsOptional()
  @IsInt({ message: `max_attempts must be an integer from 1 to ${MAX_ATTEMPTS}` })
  @Min(1, { message: `max_attempts must be an integer from 1 to ${MAX_ATTEMPTS}` })
  @Max(MAX_ATTEMPTS, { message: `max_attempts must be an integer from 1 to ${MAX_ATTEMPTS}` })
  max_attempts?: number;
}

/** The goal as the client asked for it, with the defaults of what it left out. */
export function goalRequest(body: CreateGoalDto): Omit<GoalRequest, 'userId'> {
  return {
    goal: body.goal,
    subtasks: body.subtasks,
    timeoutSec: body.timeout_sec ?? DEFAULT_TIMEOUT_SEC,
    maxAttempts: body.max_attempts ?? DEFAULT_MAX_ATTEMPTS,
  };
}

const GOAL_ID = /^[A-Za-z0-9_-]{1,128}$/;
export const GOAL_ID_SCHEMA: JsonSchema = { type: 'string', pattern: GOAL_ID.source };

export function goalIdParam(id: string): string {
  if (!GOAL_ID.test(id)) throw invalid('goal id must be 1-128 characters of letters, digits, _ -');
  return id;
}
