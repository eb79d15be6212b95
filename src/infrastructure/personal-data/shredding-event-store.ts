/**
 * Crypto-shredding around any event-store adapter (issue 17, item 4). On
 * append, each personal field the catalogue names is sealed with its
 * subject's data key (field-seal.ts) before the adapter sees the event, so
 * the log, its hash chain and every replica hold only ciphertext. On every
 * read (streams, the global log, subscriptions) the sealed fields are opened
 * again; a field whose key was erased reads as the catalogue's erased value.
 * The sealed log itself (`readSealed`: audit verification, the federation
 * export) passes through untouched.
 *
 * Erasure: appending an event the catalogue names as an erasure (the user's
 * anonymisation) deletes the subject's keys once the append has committed —
 * on a regional node too, when the replicated event arrives. Events already
 * sealed (a replicated page) are appended as they are.
 *
 * Keys are cached in this process; an erasure made by another process evicts
 * them when its event reaches this one's subscriptions (docs/security.md).
 */
import type {
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedRevision,
  JsonObject,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeToAllOptions,
  Subscription,
} from '../event-store/event-store.port';
import type { ReadSealedOptions, SealedEvent } from '../event-store/hash-chain';
import { isSealed, open, seal } from './field-seal';
import type { DataKey, KeyStore } from './key-store.port';

/** A personal field as the feature catalogue describes it (src/aggregates/personal-data.ts). */
export interface PersonalFieldSpec {
  path: string;
  subject: { field: string } | { stream: RegExp } | { streamHead: string };
  purpose: string;
  erased: unknown;
}

export interface PersonalDataCatalogue {
  fieldsOf(type: string): readonly PersonalFieldSpec[];
  /** the keys an event erases once appended (an anonymisation), or null */
  erasureOf(type: string, data: JsonObject): { subject: string; purposes: readonly string[] } | null;
}

const CACHE_LIMIT = 20_000;

function getPath(data: JsonObject, path: string): unknown {
  let at: unknown = data;
  for (const part of path.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** A copy of `data` with `path` set, copying only the objects on the path. */
function setPath(data: JsonObject, path: string, value: unknown): JsonObject {
  const [head, ...rest] = path.split('.');
  const inner = data[head];
  return { ...data, [head]: rest.length && typeof inner === 'object' && inner !== null ? setPath(inner as JsonObject, rest.join('.'), value) : value };
}

export class ShreddingEventStore implements EventStore {
  private readonly current = new Map<string, DataKey>();
  private readonly opened = new Map<string, Buffer | null>();
  /** resolves once the latest append so far was handed to the inner store (or failed before) */
  private handOff: Promise<void> = Promise.resolve();

  constructor(
    private readonly inner: EventStore,
    private readonly keys: KeyStore,
    private readonly catalogue: PersonalDataCatalogue,
  ) {}

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    // Appends reach the inner store in the order they were made, whatever their sealing took: a replicated
    // page appends one stream's runs in log order in one turn (appendReplicated), each run expecting the
    // revision the one before it leaves, and the group commit writes them together.
    const previous = this.handOff;
    let handedOff!: () => void;
    this.handOff = new Promise<void>((resolve) => (handedOff = resolve));
    let appended: Promise<AppendResult>;
    try {
      const sealed = await Promise.all(events.map((event) => this.sealEvent(streamId, event)));
      await previous;
      appended = this.inner.append(streamId, sealed, expected);
    } finally {
      handedOff();
    }
    const result = await appended;
    for (const event of events) {
      const erasure = this.catalogue.erasureOf(event.type, event.data);
      if (erasure) for (const purpose of erasure.purposes) await this.erase(erasure.subject, purpose);
    }
    return result;
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.openAll(await this.inner.readStream(streamId, options));
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.openAll(await this.inner.readAll(options));
  }

  subscribeToAll(options: SubscribeToAllOptions, handler: BatchHandler): Subscription {
    return this.inner.subscribeToAll(options, async (events) => {
      // an erasure made by another process: forget its keys before opening anything after it
      for (const event of events) {
        const erasure = this.catalogue.erasureOf(event.type, event.data);
        if (erasure) for (const purpose of erasure.purposes) this.forget(erasure.subject, purpose);
      }
      await handler(await this.openAll(events));
    });
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  readSealed(options: ReadSealedOptions): Promise<SealedEvent[]> {
    return this.inner.readSealed(options);
  }

  async close(): Promise<void> {
    await this.inner.close();
    await this.keys.close();
  }

  /** The key store this log seals with (the federation export hands keys to approved regional nodes). */
  get keyStore(): KeyStore {
    return this.keys;
  }

  private async sealEvent(streamId: string, event: NewEvent): Promise<NewEvent> {
    const fields = this.catalogue.fieldsOf(event.type);
    if (!fields.length) return event;
    // a path sealed already (a replicated event) is left as it came
    const alreadySealed = new Set(fields.filter((f) => isSealed(getPath(event.data, f.path))).map((f) => f.path));
    let data = event.data;
    for (const field of fields) {
      if (alreadySealed.has(field.path)) continue;
      const value = getPath(data, field.path);
      if (value === undefined || value === null) continue;
      const subject = await this.subjectOf(field, streamId, event.data);
      if (!subject) continue;
      data = setPath(data, field.path, seal(value, await this.currentKey(subject, field.purpose)));
    }
    return data === event.data ? event : { ...event, data };
  }

  private async subjectOf(field: PersonalFieldSpec, streamId: string, data: JsonObject): Promise<string | null> {
    const ref = field.subject;
    if ('field' in ref) {
      const value = getPath(data, ref.field);
      return typeof value === 'string' && value ? value : null;
    }
    if ('stream' in ref) return ref.stream.exec(streamId)?.[1] ?? null;
    const [head] = await this.inner.readStream(streamId, { maxCount: 1 });
    const value = head ? getPath(head.data, ref.streamHead) : undefined;
    return typeof value === 'string' && value ? value : null;
  }

  private async currentKey(subject: string, purpose: string): Promise<DataKey> {
    const id = `${purpose}|${subject}`;
    const cached = this.current.get(id);
    if (cached) return cached;
    const key = await this.keys.current(subject, purpose);
    this.remember(this.current, id, key);
    return key;
  }

  private async keyOf(subject: string, purpose: string, version: number): Promise<Buffer | null> {
    const id = `${purpose}|${version}|${subject}`;
    if (this.opened.has(id)) return this.opened.get(id) ?? null;
    const key = await this.keys.get(subject, purpose, version);
    // a key missing here may still arrive (a regional node imports keys page by page): only live keys are cached
    if (key) this.remember(this.opened, id, key);
    return key;
  }

  private remember<V>(cache: Map<string, V>, id: string, value: V): void {
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(id, value);
  }

  private async erase(subject: string, purpose: string): Promise<void> {
    await this.keys.erase(subject, purpose);
    this.forget(subject, purpose);
  }

  private forget(subject: string, purpose: string): void {
    this.current.delete(`${purpose}|${subject}`);
    const suffix = `|${subject}`;
    for (const id of this.opened.keys()) if (id.startsWith(`${purpose}|`) && id.endsWith(suffix)) this.opened.delete(id);
  }

  private async openAll(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    let out: RecordedEvent[] | null = null;
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      const fields = this.catalogue.fieldsOf(event.type);
      if (!fields.length) continue;
      const data = await this.openData(event.data, fields);
      if (data === event.data) continue;
      out ??= events.slice();
      out[i] = { ...event, data };
    }
    return out ?? events;
  }

  private async openData(data: JsonObject, fields: readonly PersonalFieldSpec[]): Promise<JsonObject> {
    let result = data;
    const done = new Set<string>();
    for (const field of fields) {
      if (done.has(field.path)) continue;
      done.add(field.path);
      let value = getPath(result, field.path);
      if (!isSealed(value)) continue;
      while (isSealed(value)) {
        const { s, p, v } = value.$pd;
        const key = await this.keyOf(s, p, v);
        if (!key) {
          value = structuredClone(field.erased);
          break;
        }
        try {
          value = open(value, key);
        } catch {
          // a text the key does not open (tampered with): read as erased; audit:verify names the event
          value = structuredClone(field.erased);
          break;
        }
      }
      result = setPath(result, field.path, value);
    }
    return result;
  }
}
