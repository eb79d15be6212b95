/**
 * `npm run projections:rebuild [-- [--force] name ...]`: drops the named read
 * models (all when none is named) and replays the whole event log into them,
 * with a progress bar and the replay rate. Stop the service first: with the
 * embedded read store, a running service holds its own copy of the read
 * models and would overwrite the rebuilt ones. The command refuses (exit 2)
 * while a service process of this host runs on the same DATA_DIR, unless
 * `--force`.
 */
import 'reflect-metadata';
import { SingleBar, Presets } from 'cli-progress';
import { loadConfigOrExit } from '../config/config';
import { UpcasterRegistry } from '../infrastructure/eventsourcing/upcasters';
import { createEventStore, createKeyStore, createReadStore } from '../infrastructure/ports.factory';
import { ProjectionRegistry } from '../infrastructure/projections/projection-registry';
import { ProjectionEngine } from '../infrastructure/projections/projection-engine';
import { runningServices } from '../infrastructure/running-marker';
import { ALL_PROJECTIONS } from '../projections';
import { PERSONAL_DATA } from '../aggregates/personal-data';

async function main(args: string[]): Promise<void> {
  const config = loadConfigOrExit();
  const force = args.includes('--force');
  const names = args.filter((arg) => arg !== '--force');
  const running = runningServices(config.dataDir);
  if (running.length > 0 && !force) {
    const who = running.map((s) => `${s.role} process ${s.pid} (since ${s.started_at})`).join(', ');
    process.stderr.write(
      `refusing to rebuild: a running service uses ${config.dataDir}: ${who}. Stop it first, or pass --force ` +
        '(with the embedded read store the running service would overwrite the rebuilt read models).\n',
    );
    process.exit(2);
  }
  const registry = new ProjectionRegistry(ALL_PROJECTIONS);
  const selected = names.length ? names.map((n) => registry.get(n)) : registry.all();
  const eventStore = await createEventStore(config, new UpcasterRegistry(), { catalogue: PERSONAL_DATA, keys: await createKeyStore(config) });
  const readStore = await createReadStore(config);
  const engine = new ProjectionEngine(eventStore, readStore, registry);
  try {
    // every selected read model in one pass over the log
    const head = await eventStore.headPosition();
    const label = selected.length === 1 ? selected[0].name : `${selected.length} projections`;
    const bar = new SingleBar({ format: `${label.padEnd(16)} [{bar}] {percentage}% | {value}/{total} positions | {rate} ev/s` }, Presets.shades_classic);
    bar.start(Math.max(head, 1), 0, { rate: 0 });
    const started = process.hrtime.bigint();
    const { events } = await engine.rebuild(selected, (position, _head, count) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      bar.update(position, { rate: Math.round(count / Math.max(seconds, 1e-6)) });
    });
    bar.update(Math.max(head, 1));
    bar.stop();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    process.stdout.write(
      `${selected.map((p) => p.name).join(', ')}: replayed ${events} events in ${seconds.toFixed(2)} s = ${Math.round(events / Math.max(seconds, 1e-6))} events/s\n`,
    );
  } finally {
    await readStore.close();
    await eventStore.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
