/**
 * DTO validation for every route: unknown fields are dropped, wrong types and
 * missing fields give a 400 that names the field, and a body that is not a
 * JSON object is refused before any handler sees it; a request without a
 * body reads as `{}` (objectBody, as on the routes with field readers), so a
 * route whose fields are all optional takes a body-less POST. Refusals are
 * `DomainError('invalid', ...)`, the one error type of our code, which
 * HttpExceptionFilter maps to the 400.
 */
import { type ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { DomainError } from '../../aggregates/shared/domain-error';
import { objectBody } from './body-fields';

function messages(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => (parent ? `${parent}.${m}` : m));
    return [...own, ...messages(e.children ?? [], path)];
  });
}

@Injectable()
export class BodyValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: false,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new DomainError('invalid', messages(errors).join('; ') || 'invalid request'),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const body = metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object ? objectBody(value) : value;
    return super.transform(body, metadata);
  }
}
