/**
 * Requests of the engine routes: path names checked against their shapes
 * before anything is looked up (a name is never handed to a program), and
 * the bodies' DTOs.
 */
import { IsIn, IsInt, IsString, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
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
