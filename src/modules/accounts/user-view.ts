/** The user record as clients see it (social API User shape, reduced to what accounts know). */
import type { UserDoc } from '../../projections/accounts/users.projection';

export interface UserView {
  id: string;
  username: string;
  email?: string | null;
  display_name: string;
  role: string;
  user_type: string;
  is_admin: boolean;
  is_moderator: boolean;
  created_at: string;
  last_active_at: string | null;
}

/** `self` adds private fields (e-mail) for the account's owner. */
export function toUserView(doc: UserDoc, self: boolean): UserView {
  const view: UserView = {
    id: doc.id,
    username: doc.username,
    display_name: doc.display_name,
    role: doc.role,
    user_type: doc.user_type,
    is_admin: doc.role === 'admin',
    is_moderator: doc.role === 'admin' || doc.role === 'operator',
    created_at: doc.created_at,
    last_active_at: doc.last_active_at,
  };
  if (self) view.email = doc.email;
  return view;
}
