/**
 * What this process is: `api` serves HTTP (and, with PROJECTIONS=inline, also
 * runs the background work); `worker` (`npm run worker`) runs only the
 * background work: projections, sagas and the integration-event relay.
 */
export type ProcessRole = 'api' | 'worker';

export const PROCESS_ROLE = Symbol('PROCESS_ROLE');
