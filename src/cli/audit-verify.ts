/**
 * `npm run audit:verify`: walks the event log from the start and checks every
 * event's seal (src/infrastructure/event-store/hash-chain.ts). Prints the
 * verification as JSON and exits 0 when every link holds, 3 when one is
 * broken (the first broken link is named: stream, revision, position, event
 * id and why), 1 on an error. Safe while the service runs (it only reads).
 */
import 'reflect-metadata';
import { type AppConfig, loadConfigOrExit } from '../config/config';
import { type Verification, verifyLog } from '../infrastructure/event-store/hash-chain';
import { UpcasterRegistry } from '../infrastructure/eventsourcing/upcasters';
import { createEventStore } from '../infrastructure/ports.factory';

export const BROKEN_EXIT_CODE = 3;

export async function auditVerify(config: AppConfig, progress?: (position: number, checked: number) => void): Promise<Verification> {
  const eventStore = await createEventStore(config, new UpcasterRegistry(), null);
  try {
    return await verifyLog(eventStore, { onProgress: progress });
  } finally {
    await eventStore.close();
  }
}

export function describeVerification(v: Verification): string {
  const scope = v.unsealed > 0 ? ` (${v.unsealed} events before position ${v.sealed_from ?? 'end'} predate sealing and are not verifiable)` : '';
  if (v.broken) {
    const b = v.broken;
    return `BROKEN at stream ${b.stream} revision ${b.revision}, position ${b.position}, event ${b.event_id}: ${b.reason}: ${b.detail}${scope}`;
  }
  return `ok: ${v.checked} events, head position ${v.head.position}, running hash ${v.head.chain ?? '-'}${scope}`;
}

if (require.main === module) {
  const config = loadConfigOrExit();
  auditVerify(config, (position, checked) => process.stderr.write(`\rchecked ${checked} events (position ${position})`))
    .then((verification) => {
      process.stderr.write('\n');
      process.stdout.write(`${JSON.stringify(verification, null, 2)}\n${describeVerification(verification)}\n`);
      process.exit(verification.ok ? 0 : BROKEN_EXIT_CODE);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
