/**
 * An error whose body the SPEC fixes exactly and that is not the usual
 * `{success: false, error}` envelope (e.g. the 403 of PUT /api/settings/compute
 * on a central node: `{error: 'Central nodes cannot enable metered APIs for hive'}`).
 * HttpExceptionFilter sends `body` as is with `status`.
 */
export class RawBodyError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`);
    this.name = 'RawBodyError';
  }
}
