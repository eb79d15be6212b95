/** Request bodies of the bot routes (class-validator DTOs). */
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNumber, IsOptional, IsString, IsUrl, Length, MaxLength, Min } from 'class-validator';
import { PLATFORMS } from '../../aggregates/agents/agent';

export class RegisterBotRequest {
  @IsString()
  @Length(1, 200, { message: 'bot_id is required (at most 200 characters)' })
  bot_id!: string;

  @IsString()
  @Length(1, 100, { message: 'bot_name is required (at most 100 characters)' })
  bot_name!: string;

  @IsOptional()
  @IsIn(PLATFORMS, { message: `platform must be one of: ${PLATFORMS.join(', ')}` })
  platform?: (typeof PLATFORMS)[number];

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 50, { each: true, message: 'each capability must be 1-50 characters' })
  capabilities?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @IsUrl({ require_protocol: true, protocols: ['http', 'https'], require_tld: false }, { message: 'callback_url must be an http(s) URL' })
  callback_url?: string;
}

export class DiscoverExternalRequest {
  @IsString()
  @MaxLength(2000)
  @IsUrl({ require_protocol: true, protocols: ['http', 'https'], require_tld: false }, { message: 'gateway_url must be an http(s) URL' })
  gateway_url!: string;

  @IsOptional()
  @IsBoolean()
  auto_register?: boolean;
}

/** POST /agent/observe: free form; the known fields are kept when they have the right type. */
export class ObserveRequest {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  event?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  page?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  outcome?: string;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  duration_ms?: number;
}

/** POST /agent/dispatch: free form; the known fields are kept. */
export class DispatchRequest {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  agent?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  action?: string;

  @IsOptional()
  @IsString()
  @MaxLength(50)
  mode?: string;
}
