/**
 * A later change to an account's document in `users` (`$set`, `$inc`, ...).
 * Later changes never create a document: an account exists before anything
 * happens to it (log order). The social contexts' handler maps
 * (`projections/social/users.<context>.handlers.ts`) update users through
 * this; it lives apart from users.projection.ts so that those maps, which the
 * projection imports, do not import it back (no-circular).
 */
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Update } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';

export const USERS = 'users';

export const updateUser = (event: { position: number }, writer: ProjectionWriter, userId: string, update: Update): void =>
  applyOnce(writer, USERS, userId, event, update, { upsert: false });
