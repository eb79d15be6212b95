import 'reflect-metadata';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { DomainError } from '../../aggregates/shared/domain-error';
import { BodyValidationPipe, declarationOrder } from './body-validation.pipe';

class Login {
  @IsString()
  @IsNotEmpty()
  @MaxLength(10)
  password!: string;

  @IsOptional()
  @IsInt({ message: 'count must be an integer from 1 to 5' })
  @Min(1, { message: 'count must be an integer from 1 to 5' })
  @Max(5, { message: 'count must be an integer from 1 to 5' })
  count?: number;
}

class Named extends Login {
  @IsString()
  @Length(2, 4, { message: 'name must be 2-4 characters' })
  name!: string;

  @IsString({ message: 'colour must be red or blue' })
  @IsIn(['red', 'blue'], { message: 'colour must be red or blue' })
  colour!: string;
}

async function refusal(metatype: new () => unknown, body: unknown): Promise<string> {
  try {
    await new BodyValidationPipe().transform(body, { type: 'body', metatype });
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('BodyValidationPipe', () => {
  it('given the rules of a field, then their declaration order is the order written in the class, base class first', () => {
    expect(declarationOrder(Login, 'password')).toEqual(['isString', 'isNotEmpty', 'maxLength']);
    expect(declarationOrder(Named, 'password')).toEqual(['isString', 'isNotEmpty', 'maxLength']);
    expect(declarationOrder(Named, 'name')).toEqual(['isString', 'isLength']);
  });

  it('given a missing field with three rules, when validated, then one message: the first declared rule', async () => {
    expect(await refusal(Login, {})).toBe('password must be a string');
  });

  it('given a value that breaks a later rule only, then that rule is the message', async () => {
    expect(await refusal(Login, { password: 'x'.repeat(11) })).toBe('password must be shorter than or equal to 10 characters');
  });

  it('given several bad fields, then one message each, joined with "; "', async () => {
    expect(await refusal(Login, { password: 5, count: 9 })).toBe('password must be a string; count must be an integer from 1 to 5');
  });

  it('given two rules of one field that share a text, then the text appears once', async () => {
    expect(await refusal(Named, { password: 'ok', name: 'abc' })).toBe('colour must be red or blue');
  });
});
