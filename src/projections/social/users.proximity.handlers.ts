/**
 * The proximity context's events on the `users` read model (spread into
 * usersProjection): the location sharing setting (social-routes §13). The
 * users record holds no coordinates; the pings read model does.
 */
import { updateUser } from '../accounts/update-user';
import type { ProjectionHandlers } from '../support/define-projection';

export const USERS_PROXIMITY_HANDLERS = {
  LocationSharingSet: (event, writer) => updateUser(event, writer, event.data.user_id, { $set: { location_sharing_enabled: event.data.enabled } }),
} satisfies ProjectionHandlers;
