/**
 * Requests of the engine routes: path names checked against their shapes
 * before anything is looked up (a name is never handed to a program), and
 * the bodies' DTOs.
 */
import { IsInt, IsString, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { DomainError } from '../../aggregates/shared/domain-error';
import { str, type JsonSchema } from '../common/openapi';
import { manifestOf, TOOL_MANIFEST, TOOL_NAME, type ToolManifest } from './tool-manifest';

const Present = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

export const TOOL_NAME_SCHEMA: JsonSchema = str({ pattern: TOOL_NAME.source, description: `a tool of the manifest: ${TOOL_MANIFEST.map((t) => t.name).join(', ')}` });

/** The manifest entry of a `{tool_name}` path parameter: 400 for a malformed name, 404 for one the manifest does not list. */
export function toolOf(name: string): ToolManifest {
  if (!TOOL_NAME.test(name)) throw new DomainError('invalid', 'tool_name must be 1-40 lower-case letters, digits or -, starting with a letter');
  const tool = manifestOf(name);
  if (!tool) throw new DomainError('not_found', `no tool named ${name} in the manifest (known: ${TOOL_MANIFEST.map((t) => t.name).join(', ')})`);
  return tool;
}

export class SpeakDto {
  @IsString() @Length(1, 5000) @Matches(/\S/, { message: 'text must not be blank' }) text!: string;
  @Present() @IsString() @Matches(/^[a-z]{2,3}(-[a-z0-9]{1,8}){0,3}$/, { message: 'voice must be an espeak-ng voice name such as en, en-us or de' }) voice?: string;
  @Present() @IsInt() @Min(80) @Max(450) speed?: number;
}
