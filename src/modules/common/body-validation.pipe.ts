/**
 * DTO validation for every route: unknown fields are dropped, wrong types and
 * missing fields give a 400 that names the field, and a body that is not a
 * JSON object is refused before any handler sees it; a request without a
 * body reads as `{}` (objectBody, as on the routes with field readers), so a
 * route whose fields are all optional takes a body-less POST. Refusals are
 * `DomainError('invalid', ...)`, the one error type of our code, which
 * HttpExceptionFilter maps to the 400.
 *
 * One message per field: the first of its rules, in the order the DTO
 * declares them, that the value breaks (a missing password is `password must
 * be a string`, not also its length and size); fields joined with `; `, no
 * text twice. class-validator reports a field's failed rules in the order its
 * decorators were applied, which TypeScript does bottom-up: the reverse of the
 * declaration. `declarationOrder` restores it from class-validator's own
 * metadata rather than trusting the key order of `constraints`.
 */
import { type ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, type ValidationError } from 'class-validator';
import { DomainError } from '../../aggregates/shared/domain-error';
import { objectBody } from './body-fields';

type Constructor = abstract new (...args: never[]) => unknown;

const orders = new WeakMap<Constructor, Map<string, string[]>>();

/** The constraint names of `property` on `target` in declaration order (base classes first). */
export function declarationOrder(target: Constructor, property: string): string[] {
  let byProperty = orders.get(target);
  if (!byProperty) {
    byProperty = new Map();
    orders.set(target, byProperty);
  }
  let order = byProperty.get(property);
  if (!order) {
    const metadatas = getMetadataStorage()
      .getTargetValidationMetadatas(target as new () => unknown, '', true, false)
      .filter((m) => m.propertyName === property && m.name !== undefined);
    // decorators of one class were applied bottom-up: reverse each class's run
    const classes = [...new Set(metadatas.map((m) => m.target))].reverse();
    order = classes.flatMap((cls) =>
      metadatas
        .filter((m) => m.target === cls)
        .reverse()
        .map((m) => m.name as string),
    );
    byProperty.set(property, order);
  }
  return order;
}

/** The message of the first declared rule that `error`'s value breaks. */
function firstMessage(error: ValidationError): string | undefined {
  const constraints = error.constraints ?? {};
  const target = error.target?.constructor as Constructor | undefined;
  const key = (target ? declarationOrder(target, error.property) : []).find((name) => name in constraints) ?? Object.keys(constraints)[0];
  return key === undefined ? undefined : constraints[key];
}

export function messages(errors: ValidationError[], parent = ''): string[] {
  const all = errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own = firstMessage(e);
    return [...(own === undefined ? [] : [parent ? `${parent}.${own}` : own]), ...messages(e.children ?? [], path)];
  });
  return [...new Set(all)];
}

@Injectable()
export class BodyValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: false,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      // the target (the DTO instance) tells which class declared the rules; it never leaves the pipe
      validationError: { target: true, value: false },
      exceptionFactory: (errors) => new DomainError('invalid', messages(errors).join('; ') || 'invalid request'),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const body = metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object ? objectBody(value) : value;
    return super.transform(body, metadata);
  }
}
