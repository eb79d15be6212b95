/**
 * Requests of the engine routes: path names checked against their shapes
 * before anything is looked up (a name is never handed to a program), and
 * the bodies' DTOs.
 */
import { IsBoolean, IsIn, IsInt, IsString, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { MODEL_PRIORITIES } from '../../aggregates/engine/model-lifecycle';
import { str, type JsonSchema } from '../common/openapi';
import { MODEL_NAME } from './engine-lifecycle.queries';
import { BUILT_IN_TOOLS, TOOL_NAME } from './tool-manifest';

const Present = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

export const TOOL_NAME_SCHEMA: JsonSchema = str({
  pattern: TOOL_NAME.source,
  description: `a tool of the manifest: ${BUILT_IN_TOOLS.map((t) => t.name).join(', ')} and those of ENGINE_TOOLS_FILE`,
});

export class SpeakDto {
  @IsString() @Length(1, 5000) @Matches(/\S/, { message: 'text must not be blank' }) text!: string;
  @Present() @IsString() @Matches(/^[a-z]{2,3}(-[a-z0-9]{1,8}){0,3}$/, { message: 'voice must be an espeak-ng voice name such as en, en-us or de' }) voice?: string;
  @Present() @IsInt() @Min(80) @Max(450) speed?: number;
}

export const MODEL_NAME_SCHEMA: JsonSchema = str({ pattern: MODEL_NAME.source, description: 'a model of GET /api/tools/lifecycle' });

export class PriorityDto {
  @IsIn(MODEL_PRIORITIES, { message: `priority must be one of ${MODEL_PRIORITIES.join(', ')}` }) priority!: string;
}

const Optional = () => ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null);

/** POST /coding/execute. `code`: a JavaScript (CommonJS) program to run as the task's solution, instead of asking the LLM port for one. */
export class ExecuteCodingDto {
  @IsString() @Length(1, 20_000) @Matches(/\S/, { message: 'task must not be blank' }) task!: string;
  @Optional() @IsString() @Matches(/^[a-z][a-z0-9_-]{0,39}$/, { message: 'task_type must be 1-40 lower-case letters, digits, _ or -' }) task_type?: string | null;
  @Optional() @IsString() @Matches(/^[a-z][a-z0-9-]{0,39}$/, { message: 'preferred_tool must be a tool name such as builtin' }) preferred_tool?: string | null;
  @Optional() @IsString() @Matches(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/, { message: 'model must be a model name' }) model?: string | null;
  @Optional() @IsString() @Length(1, 200_000) code?: string | null;
  @Optional() @IsInt() @Min(100) @Max(120_000) timeout_ms?: number | null;
}

export class InstallCodingToolDto {
  @IsString() @Matches(/^[a-z][a-z0-9-]{0,39}$/, { message: 'tool_name must be 1-40 lower-case letters, digits or -' }) tool_name!: string;
}

/** POST /api/skills/ingest: the SKILL.md text, or the folder holding it (inside SKILLS_DIRS); exactly one. */
export class IngestSkillDto {
  @Optional() @IsString() @Length(1, 262_144) skill_md?: string | null;
  @Optional() @IsString() @Length(1, 4096) @Matches(/^\//, { message: 'path must be an absolute folder path' }) path?: string | null;
}

export class DiscoverLocalDto {
  @Optional() @IsBoolean() ingest?: boolean | null;
}

export class DiscoverGithubDto {
  @IsString() @Matches(/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/, { message: 'repository must be owner/name' }) repository!: string;
  @Optional() @IsString() @Matches(/^(?!.*\.\.)[A-Za-z0-9._\/-]{1,200}$/, { message: 'ref must be a branch, tag or commit name' }) ref?: string | null;
  @Optional() @IsString() @Matches(/^(?!.*\.\.)[A-Za-z0-9._\/ -]{1,500}$/, { message: 'path must be a folder of the repository' }) path?: string | null;
  @Optional() @IsBoolean() ingest?: boolean | null;
}

export const SKILL_NAME_SCHEMA: JsonSchema = str({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 64 });
