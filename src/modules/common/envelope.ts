/** The success envelope of the social and account routes: `{success: true, data}`, and `meta` on paginated lists. */
export interface Envelope<T> {
  success: true;
  data: T;
}

export function ok<T>(data: T): Envelope<T> {
  return { success: true, data };
}

/** The meta of an offset-paginated list (social-routes §0.1): `has_more = offset + limit < total`. */
export interface PageMeta {
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

export interface PagedEnvelope<T> extends Envelope<T[]> {
  meta: PageMeta;
}

/** A page of a list with its meta: `items` are the page, `total` counts every match. */
export function paged<T>(items: T[], total: number, page: { limit: number; offset: number }): PagedEnvelope<T> {
  return { success: true, data: items, meta: { total, limit: page.limit, offset: page.offset, has_more: page.offset + page.limit < total } };
}
