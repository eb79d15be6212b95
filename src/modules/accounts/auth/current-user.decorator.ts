import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthUser } from './auth-user';

/** The authenticated user of the request (routes guarded by @Authenticated). */
export const CurrentUser = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthUser => context.switchToHttp().getRequest<{ user: AuthUser }>().user,
);

/** The signed-in viewer of an `@OptionalViewer()` route, or null for an anonymous one. */
export const Viewer = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthUser | null => context.switchToHttp().getRequest<{ user?: AuthUser }>().user ?? null,
);
