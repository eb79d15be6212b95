/** The body of POST /integrity/challenge (social-routes §20). */
import { IsIn, IsObject, IsOptional, IsString, Length, Matches } from 'class-validator';
import { CHALLENGE_TYPES, type ChallengeType } from '../../aggregates/integrity/integrity-challenge';


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

const NODE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** POST /integrity/challenges (admin): a challenge to send to `target_node_id`. */
export class IssueChallengeRequest {
  @IsString()
  @Matches(NODE_ID, { message: 'target_node_id must be 1-128 letters, digits or _ . : -' })
  target_node_id!: string;

  @IsString()
  @IsIn(CHALLENGE_TYPES as unknown as string[], { message: `type must be one of ${CHALLENGE_TYPES.join(', ')}` })
  type!: ChallengeType;

  @IsOptional()
  @IsString()
  @Length(8, 128, { message: 'nonce must be 8-128 characters' })
  nonce?: string;

  /** the ad an impression_audit asks about */
  @IsOptional()
  @IsString()
  @Length(1, 128, { message: 'ad_id must be 1-128 characters' })
  ad_id?: string;
}

/** The largest signed response kept with its evaluation (its canonical JSON). */
export const MAX_RESPONSE_BYTES = 16_384;

/** POST /integrity/challenge-response (node): the target's signed answer to a challenge of this node. */
export class ChallengeResponseRequest {
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'challenge_id must be 1-64 letters, digits, _ or -' })
  challenge_id!: string;

  @IsObject({ message: 'response must be an object' })
  response!: Record<string, unknown>;

  @IsString()
  @Length(1, 256, { message: 'signature must be 1-256 characters' })
  signature!: string;
}

/** POST /integrity/node/{id}/ban (admin). */
export class NodeBanRequest {
  @IsString()
  @IsIn(['ban', 'unban'], { message: 'action must be one of ban, unban' })
  action!: 'ban' | 'unban';

  @IsOptional()
  @IsString()
  @Length(0, 500, { message: 'reason must be at most 500 characters' })
  reason?: string;
}

export { NODE_ID };
