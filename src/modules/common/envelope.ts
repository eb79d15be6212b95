/** The success envelope of the social and account routes: `{success: true, data}`. */
export interface Envelope<T> {
  success: true;
  data: T;
}

export function ok<T>(data: T): Envelope<T> {
  return { success: true, data };
}
