/**
 * The one bounded wait of the test suites: polls until `check` holds (or
 * returns a value that `ok` accepts) and fails with `what` after the
 * deadline. Use it for something that WILL happen (a projection catching
 * up, a message arriving). For something that must NOT happen, drain the
 * work explicitly (`settled(t)` of app.ts for the sagas and projections, a
 * worker's own method, the subscription's end, the bus's close) and then
 * assert: never sleep and hope.
 *
 *   await eventually('the wallet shows 40', async () => (await walletOf(id))?.season_spark === 40);
 *   const wallet = await eventually('the wallet', () => walletOf(id), (w) => w?.season_spark === 40);
 */
export interface EventuallyOptions {
  /** default 10 s */
  timeoutMs?: number;
  /** default 10 ms */
  intervalMs?: number;
}

export async function eventually(what: string, check: () => boolean | Promise<boolean>, options?: EventuallyOptions): Promise<void>;
export async function eventually<T>(what: string, read: () => T | Promise<T>, ok: (value: T) => boolean, options?: EventuallyOptions): Promise<T>;
export async function eventually<T>(
  what: string,
  read: () => T | Promise<T>,
  okOrOptions?: ((value: T) => boolean) | EventuallyOptions,
  maybeOptions?: EventuallyOptions,
): Promise<T | void> {
  const ok = typeof okOrOptions === 'function' ? okOrOptions : (value: T) => value === true;
  const options = (typeof okOrOptions === 'function' ? maybeOptions : okOrOptions) ?? {};
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const interval = options.intervalMs ?? 10;
  let last: T | undefined;
  let lastError: unknown = null;
  for (;;) {
    try {
      last = await read();
      lastError = null;
      if (ok(last)) return typeof okOrOptions === 'function' ? last : undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const seen = lastError ? `last error: ${lastError instanceof Error ? lastError.message : String(lastError)}` : `last value: ${JSON.stringify(last)}`;
      throw new Error(`timed out waiting for ${what} (${seen})`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
