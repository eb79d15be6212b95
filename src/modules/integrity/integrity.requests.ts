/** The body of POST /integrity/challenge (social-routes §20). */
import { IsIn, IsOptional, IsString, Length } from 'class-validator';

export const CHALLENGE_TYPES = ['agent_count_verify', 'stats_probe', 'code_hash_check', 'guardrail_verify', 'impression_audit'] as const;
export type ChallengeType = (typeof CHALLENGE_TYPES)[number];

export class ChallengeRequest {
  @IsString()
  @IsIn(CHALLENGE_TYPES as unknown as string[], { message: `type must be one of ${CHALLENGE_TYPES.join(', ')}` })
  type!: ChallengeType;

  @IsString()
  @Length(8, 128, { message: 'nonce must be 8-128 characters' })
  nonce!: string;

  @IsOptional()
  @IsString()
  @Length(1, 128, { message: 'ad_id must be 1-128 characters' })
  ad_id?: string;
}
