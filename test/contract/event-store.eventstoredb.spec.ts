/**
 * The event store contract against a real EventStoreDB / KurrentDB. No package
 * of the server exists for this machine (DESIGN.md §6), so the suite runs only
 * when EVENTSTORE_CONNECTION_STRING points at a running server, and is skipped,
 * with the reason printed, otherwise. The adapter's translation code is covered
 * without a server by src/infrastructure/event-store/eventstoredb/mapping.spec.ts.
 *
 * The server is shared and keeps its data: every test of the contract uses its
 * own stream ids and positions relative to the head at its start.
 */
import { EventStoreDbEventStore } from '../../src/infrastructure/event-store/eventstoredb/eventstoredb-event-store';
import { describeEventStoreContract } from './event-store.contract';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;

if (connectionString) {
  describeEventStoreContract('EventStoreDbEventStore', async () => {
    const store = await EventStoreDbEventStore.connect(connectionString, { resubscribeDelayMs: 100 });
    return { store, cleanup: () => store.close() };
  });
} else {
  const title = 'EventStore contract: EventStoreDbEventStore';
  process.stdout.write(
    `skipping "${title}": EVENTSTORE_CONNECTION_STRING is not set, and EventStoreDB cannot run on this machine ` +
      '(no package of the server exists for it; DESIGN.md §6). To run it: ' +
      '`docker compose -f docker/docker-compose.yml up -d eventstore`, then ' +
      '`EVENTSTORE_CONNECTION_STRING=esdb://localhost:2113?tls=false npm test`\n',
  );
  describe.skip(title, () => {
    it('runs against a real EventStoreDB when EVENTSTORE_CONNECTION_STRING is set', () => undefined);
  });
}
