import {
  ANY,
  BACKWARDS,
  END,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { EventMetadata, NewEvent, WrongExpectedRevisionError } from '../event-store.port';
import { chainHash, eventHash, sealOf, verifyLog, type Seal } from '../hash-chain';
import {
  ClientRecordedEvent,
  ClientResolvedEvent,
  acceptsPosition,
  checkExpectedRevision,
  continueReadAllPlan,
  fromClientCurrentRevision,
  fromClientExpectedRevision,
  isStreamNotFoundError,
  isSystemEvent,
  isTransientError,
  isWrongExpectedVersionError,
  positionOf,
  resubscribeDelayMs,
  toAppendResult,
  toClientExpectedRevision,
  toClientPosition,
  toClientReadStreamOptions,
  toEventUuid,
  SEAL_KEY,
  sealOfRecorded,
  toSealedEvent,
  toSealedJsonEvents,
  toPortPosition,
  toReadAllPlan,
  toRecordedEvent,
  toWrongExpectedRevisionError,
} from './mapping';

const METADATA: EventMetadata = {
  eventId: '6f1c2b9e-8d4a-4f7e-9b1a-2c3d4e5f6a7b',
  correlationId: 'corr-1',
  causationId: null,
  actor: 'user-1',
  nodeId: 'node-a',
  occurredAt: '2025-01-02T03:04:05.678Z',
  schemaVersion: 2,
};

function clientEvent(overrides: Partial<ClientRecordedEvent> = {}): ClientRecordedEvent {
  return {
    streamId: 'match-abc',
    id: METADATA.eventId,
    type: 'MatchBound',
    revision: 3n,
    created: new Date('2025-01-02T03:04:06.001Z'),
    isJson: true,
    data: { a: 1 },
    metadata: { ...METADATA },
    position: { commit: 4242n, prepare: 4242n },
    ...overrides,
  };
}

describe('EventStoreDB mapping', () => {
  describe('toClientExpectedRevision', () => {
    it.each([
      ['no_stream', NO_STREAM],
      ['stream_exists', STREAM_EXISTS],
      ['any', ANY],
    ] as const)('given %s, when mapped, then the client constant is used', (port, client) => {
      expect(toClientExpectedRevision(port)).toBe(client);
    });

    it('given an exact revision, when mapped, then it becomes a bigint', () => {
      expect(toClientExpectedRevision(0)).toBe(0n);
      expect(toClientExpectedRevision(41)).toBe(41n);
    });

    it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])(
      'given the invalid revision %s, when mapped, then it throws',
      (revision) => {
        expect(() => toClientExpectedRevision(revision)).toThrow(/Invalid expected revision/);
      },
    );

    it('given an unknown string, when mapped, then it throws', () => {
      expect(() => toClientExpectedRevision('latest' as never)).toThrow(/Invalid expected revision/);
    });
  });

  describe('fromClientExpectedRevision and fromClientCurrentRevision', () => {
    it('given the client constants, when mapped back, then the port constants come out', () => {
      expect(fromClientExpectedRevision(NO_STREAM)).toBe('no_stream');
      expect(fromClientExpectedRevision(STREAM_EXISTS)).toBe('stream_exists');
      expect(fromClientExpectedRevision(ANY)).toBe('any');
      expect(fromClientExpectedRevision(7n)).toBe(7);
    });

    it('given the legacy negative constants of the server metadata, when mapped back, then they are named', () => {
      expect(fromClientExpectedRevision(-1n)).toBe('no_stream');
      expect(fromClientExpectedRevision(-2n)).toBe('any');
      expect(fromClientExpectedRevision(-4n)).toBe('stream_exists');
    });

    it('given a current revision, when mapped, then a missing stream is no_stream and a revision a number', () => {
      expect(fromClientCurrentRevision('no_stream')).toBe('no_stream');
      expect(fromClientCurrentRevision(-1n)).toBe('no_stream');
      expect(fromClientCurrentRevision(0n)).toBe(0);
      expect(fromClientCurrentRevision(12n)).toBe(12);
    });

    it('given a revision beyond the safe integer range, when mapped, then it throws', () => {
      expect(() => fromClientCurrentRevision(2n ** 60n)).toThrow(/safe JavaScript integer/);
    });
  });

  describe('toWrongExpectedRevisionError', () => {
    it('given the client error for a missing stream, when mapped, then actual is no_stream', () => {
      const clientError = new WrongExpectedVersionError(undefined, {
        streamName: 'wallet-u1',
        expected: 'stream_exists',
        current: 'no_stream',
      });

      const error = toWrongExpectedRevisionError(clientError);

      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect(error).toMatchObject({ streamId: 'wallet-u1', expected: 'stream_exists', actual: 'no_stream' });
    });

    it('given the client error for an existing stream, when mapped, then actual is the current revision as a number', () => {
      const clientError = new WrongExpectedVersionError(undefined, { streamName: 'wallet-u1', expected: 0n, current: 1n });

      expect(toWrongExpectedRevisionError(clientError)).toMatchObject({ streamId: 'wallet-u1', expected: 0, actual: 1 });
    });

    it("given the caller's stream and expectation, when mapped, then they win over the server's echo", () => {
      const clientError = new WrongExpectedVersionError(undefined, { streamName: 'x', expected: -1n, current: 4n });

      const error = toWrongExpectedRevisionError(clientError, { streamId: 'match-1', expected: 'no_stream' });

      expect(error).toMatchObject({ streamId: 'match-1', expected: 'no_stream', actual: 4 });
      expect(error.message).toContain('match-1');
    });
  });

  describe('error classification', () => {
    it('given client errors, when classified, then only the wrong-version and not-found kinds match', () => {
      const wrong = new WrongExpectedVersionError(undefined, { streamName: 's', expected: ANY, current: 0n });
      const notFound = new StreamNotFoundError(undefined, 's');

      expect(isWrongExpectedVersionError(wrong)).toBe(true);
      expect(isWrongExpectedVersionError(notFound)).toBe(false);
      expect(isStreamNotFoundError(notFound)).toBe(true);
      expect(isStreamNotFoundError(new Error('stream not found'))).toBe(false);
      expect(isStreamNotFoundError(null)).toBe(false);
    });

    it('given an unavailable, timeout, not-leader or cancelled error, when classified, then it is transient', () => {
      expect(isTransientError(new UnavailableError(undefined, 'down'))).toBe(true);
      for (const type of ['deadline-exceeded', 'timeout', 'not-leader', 'cancelled']) {
        expect(isTransientError(Object.assign(new Error('x'), { type }))).toBe(true);
      }
    });

    it('given a dropped connection reported as an unknown or plain error, when classified, then it is transient', () => {
      expect(isTransientError(Object.assign(new Error('13 INTERNAL: Received RST_STREAM with code 2'), { type: 'unknown' }))).toBe(true);
      expect(isTransientError(new Error('connect ECONNREFUSED 127.0.0.1:2113'))).toBe(true);
      expect(isTransientError(new Error('Failed to discover after 10 attempts.'))).toBe(true);
    });

    it('given an error of the request itself, when classified, then it is not transient', () => {
      expect(isTransientError(Object.assign(new Error('denied'), { type: 'access-denied' }))).toBe(false);
      expect(isTransientError(Object.assign(new Error('ECONNRESET in name'), { type: 'stream-deleted' }))).toBe(false);
      expect(isTransientError(new StreamNotFoundError(undefined, 's'))).toBe(false);
      expect(isTransientError(new Error('projection failed'))).toBe(false);
      expect(isTransientError(undefined)).toBe(false);
    });
  });

  describe('resubscribeDelayMs', () => {
    it('given successive attempts, when computing the pause, then it doubles from the base up to the cap', () => {
      expect([1, 2, 3, 4, 5, 6].map((n) => resubscribeDelayMs(n, 500, 5000))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
      expect(resubscribeDelayMs(1000, 500, 5000)).toBe(5000);
      expect(resubscribeDelayMs(0, 500, 5000)).toBe(500);
    });
  });

  describe('toEventUuid', () => {
    it('given a UUID, when mapped, then it is kept (lower-cased)', () => {
      expect(toEventUuid(METADATA.eventId)).toBe(METADATA.eventId);
      expect(toEventUuid('6F1C2B9E-8D4A-4F7E-9B1A-2C3D4E5F6A7B')).toBe(METADATA.eventId);
    });

    it('given a non-UUID id, when mapped, then the same version-5 UUID comes out every time', () => {
      const a = toEventUuid('contest-entry-user-1');

      expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(toEventUuid('contest-entry-user-1')).toBe(a);
      expect(toEventUuid('contest-entry-user-2')).not.toBe(a);
    });

    it('given an empty id, when mapped, then it throws', () => {
      expect(() => toEventUuid('')).toThrow(/Invalid eventId/);
    });
  });

  describe('toSealedJsonEvents', () => {
    const sealOne = (event: NewEvent) => toSealedJsonEvents('spark-1', 0, [event], null, null).events[0];

    it('given a port event, when mapped, then id, type, data and metadata are carried as JSON, the metadata sealed', () => {
      const event: NewEvent = { type: 'SparkAwarded', data: { amount: 3, note: 'ok' }, metadata: { ...METADATA, tenant: 'acme' } };

      const json = sealOne(event);

      expect(json).toEqual({
        id: METADATA.eventId,
        contentType: 'application/json',
        type: 'SparkAwarded',
        data: { amount: 3, note: 'ok' },
        metadata: { ...METADATA, tenant: 'acme', [SEAL_KEY]: sealOf({ streamId: 'spark-1', revision: 0, type: 'SparkAwarded', data: JSON.stringify(event.data), metadata: JSON.stringify(event.metadata) }, null, null) },
      });
    });

    it('given the caller mutates its event after mapping, then the mapped event is unchanged', () => {
      const event: NewEvent = { type: 'SparkAwarded', data: { list: [1] }, metadata: { ...METADATA } };

      const json = sealOne(event);
      (event.data.list as number[]).push(2);
      event.metadata.actor = 'someone-else';

      expect(json.data).toEqual({ list: [1] });
      expect((json.metadata as EventMetadata).actor).toBe('user-1');
    });

    it('given a non-UUID eventId, when mapped, then the id is derived and metadata keeps the original', () => {
      const json = sealOne({ type: 'T', data: {}, metadata: { ...METADATA, eventId: 'entry-u1' } });

      expect(json.id).toBe(toEventUuid('entry-u1'));
      expect((json.metadata as EventMetadata).eventId).toBe('entry-u1');
    });

    it('given several events, when sealed, then each chains to the one before and the last chain is returned', () => {
      const events: NewEvent[] = [1, 2].map((n) => ({ type: 'T', data: { n }, metadata: { ...METADATA, eventId: `e-${n}` } }));

      const { events: sealed, chain } = toSealedJsonEvents('s-1', 5, events, 'a'.repeat(64), 'b'.repeat(64));

      const first = (sealed[0].metadata as Record<string, Seal>)[SEAL_KEY];
      const second = (sealed[1].metadata as Record<string, Seal>)[SEAL_KEY];
      expect(first.hash).toBe(eventHash('s-1', 5, 'T', '{"n":1}', JSON.stringify(events[0].metadata), 'a'.repeat(64)));
      expect(first.chain).toBe(chainHash('b'.repeat(64), first.hash));
      expect(second.hash).toBe(eventHash('s-1', 6, 'T', '{"n":2}', JSON.stringify(events[1].metadata), first.hash));
      expect(chain).toBe(second.chain);
    });
  });

  describe('sealed events read back', () => {
    /** What the client hands back for a sealed JSON event written at `commit`. */
    function stored(streamId: string, revision: number, commit: bigint, json: { type: string; data: unknown; metadata?: unknown }): ClientResolvedEvent {
      return {
        event: clientEvent({
          streamId,
          revision: BigInt(revision),
          type: json.type,
          data: JSON.parse(JSON.stringify(json.data)) as unknown,
          metadata: JSON.parse(JSON.stringify(json.metadata)) as unknown,
          position: { commit, prepare: commit },
        }),
      };
    }

    function writeLog(): ClientResolvedEvent[] {
      const a = toSealedJsonEvents('a-1', 0, [1, 2].map((n) => ({ type: 'T', data: { n, text: 'é"\\' }, metadata: { ...METADATA, eventId: `a-${n}` } })), null, null);
      const b = toSealedJsonEvents('b-1', 0, [{ type: 'U', data: { '10': 1, z: [null, 1.5] }, metadata: { ...METADATA, eventId: 'b-1' } }], null, a.chain);
      return [
        stored('a-1', 0, 100n, a.events[0]),
        stored('a-1', 1, 200n, a.events[1]),
        stored('b-1', 0, 300n, b.events[0]),
      ];
    }

    const logOf = (events: ClientResolvedEvent[]) => ({
      readSealed: async ({ after, maxCount }: { after: number; maxCount: number }) =>
        events.map(toSealedEvent).filter((e) => e.position > after).slice(0, maxCount),
    });

    it('given events sealed at append and read back from the client, when the log is verified, then every link holds', async () => {
      const verification = await verifyLog(logOf(writeLog()));

      expect(verification).toMatchObject({ ok: true, checked: 3, unsealed: 0, sealed_from: 100, broken: null });
    });

    it('given a stored event whose data was changed, when the log is verified, then that event is named', async () => {
      const log = writeLog();
      (log[1].event!.data as { n: number }).n = 99;

      const verification = await verifyLog(logOf(log));

      expect(verification.broken).toMatchObject({ stream: 'a-1', revision: 1, position: 200, event_id: 'a-2', reason: 'hash_mismatch' });
    });

    it('given a sealed event read back, when mapped to a recorded event, then the seal is not part of its metadata', () => {
      const [first] = writeLog();

      expect(sealOfRecorded(first)).not.toBeNull();
      expect(toRecordedEvent(first).metadata).toEqual({ ...METADATA, eventId: 'a-1' });
    });

    it('given an event written before sealing, when read back, then it has no seal and its texts are its JSON', () => {
      const sealed = toSealedEvent({ event: clientEvent() });

      expect(sealed).toMatchObject({ seal: null, data: '{"a":1}', metadata: JSON.stringify(METADATA), eventId: METADATA.eventId });
    });

    it('given a payload that is not JSON, when read for verification, then its text is kept rather than thrown on', () => {
      const sealed = toSealedEvent({ event: clientEvent({ data: Buffer.from('{"a":1', 'utf8') }) });

      expect(sealed.data).toBe('{"a":1');
    });
  });

  describe('toAppendResult', () => {
    it('given a client result, when mapped, then revision and position are numbers', () => {
      const result = { success: true, nextExpectedRevision: 2n, position: { commit: 9001n, prepare: 9001n } };

      expect(toAppendResult(result)).toEqual({ nextExpectedRevision: 2, position: 9001 });
    });

    it('given a client result without a position, when mapped, then it throws naming the server version', () => {
      expect(() => toAppendResult({ success: true, nextExpectedRevision: 0n })).toThrow(/20\.6 or later/);
    });
  });

  describe('checkExpectedRevision (appends of no events)', () => {
    it('given matching expectations, when checked, then nothing is thrown', () => {
      expect(() => checkExpectedRevision('s', 'any', 'no_stream')).not.toThrow();
      expect(() => checkExpectedRevision('s', 'no_stream', 'no_stream')).not.toThrow();
      expect(() => checkExpectedRevision('s', 'stream_exists', 0)).not.toThrow();
      expect(() => checkExpectedRevision('s', 4, 4)).not.toThrow();
    });

    it('given a mismatch, when checked, then the port error carries expected and actual', () => {
      expect(() => checkExpectedRevision('s', 'stream_exists', 'no_stream')).toThrow(WrongExpectedRevisionError);
      expect(() => checkExpectedRevision('s', 'no_stream', 2)).toThrow(expect.objectContaining({ expected: 'no_stream', actual: 2 }));
      expect(() => checkExpectedRevision('s', 1, 'no_stream')).toThrow(expect.objectContaining({ actual: 'no_stream' }));
    });
  });

  describe('positions', () => {
    it('given a client position or commit position, when mapped, then the commit position is the port position', () => {
      expect(toPortPosition({ commit: 123n, prepare: 123n })).toBe(123);
      expect(toPortPosition(456n)).toBe(456);
      expect(toPortPosition(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    });

    it('given a position beyond the safe integer range, when mapped, then it throws clearly', () => {
      expect(() => toPortPosition(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow(/cannot be a safe JavaScript integer/);
    });

    it('given position 0 or the "unset" marker, when mapped, then it throws', () => {
      expect(() => toPortPosition(0n)).toThrow(/outside the port's range/);
      expect(() => toPortPosition(2n ** 64n - 1n)).toThrow(/without a position/);
      expect(() => toPortPosition(-1n)).toThrow(/without a position/);
    });

    it('given a port position, when mapped to the client, then 0 is the start and n is {commit n, prepare n}', () => {
      expect(toClientPosition(0)).toBe(START);
      expect(toClientPosition(77)).toEqual({ commit: 77n, prepare: 77n });
      expect(() => toClientPosition(-1)).toThrow(/Invalid position/);
      expect(() => toClientPosition(1.5)).toThrow(/Invalid position/);
    });

    it("given a resolved event, when taking its position, then the event's position wins over the resolved commit position", () => {
      expect(positionOf({ event: clientEvent(), commitPosition: 1n })).toBe(4242);
      expect(positionOf({ event: clientEvent({ position: undefined }), commitPosition: 99n })).toBe(99);
      expect(() => positionOf({ event: clientEvent({ position: undefined }) })).toThrow(/22\.6 and later/);
    });
  });

  describe('isSystemEvent', () => {
    it('given a $-prefixed type or stream, when checked, then it is a system event', () => {
      expect(isSystemEvent({ streamId: '$$match-1', type: '$metadata' })).toBe(true);
      expect(isSystemEvent({ streamId: 'match-1', type: '$>' })).toBe(true);
      expect(isSystemEvent({ streamId: '$stats-127.0.0.1:2113', type: 'StatsCollected' })).toBe(true);
    });

    it('given an ordinary stream and type, when checked, then it is not', () => {
      expect(isSystemEvent({ streamId: 'match-$1', type: 'MatchBound' })).toBe(false);
    });
  });

  describe('toRecordedEvent', () => {
    it('given a resolved client event, when mapped, then every port field is filled', () => {
      const recorded = toRecordedEvent({ event: clientEvent() });

      expect(recorded).toEqual({
        streamId: 'match-abc',
        type: 'MatchBound',
        revision: 3,
        position: 4242,
        data: { a: 1 },
        metadata: METADATA,
        recordedAt: '2025-01-02T03:04:06.001Z',
      });
    });

    it('given metadata and data as JSON bytes (binary event), when mapped, then both are parsed', () => {
      const bytes = (value: unknown) => new Uint8Array(Buffer.from(JSON.stringify(value), 'utf8'));
      const recorded = toRecordedEvent({
        event: clientEvent({ isJson: false, data: bytes({ b: 'ü' }), metadata: bytes(METADATA) }),
      });

      expect(recorded.data).toEqual({ b: 'ü' });
      expect(recorded.metadata).toEqual(METADATA);
    });

    it('given an event written by another tool without metadata, when mapped, then the required fields are filled from the event', () => {
      const recorded = toRecordedEvent({ event: clientEvent({ metadata: undefined, id: 'e-1' }) });

      expect(recorded.metadata).toEqual({
        eventId: 'e-1',
        correlationId: 'e-1',
        causationId: null,
        actor: 'system:unknown',
        nodeId: 'unknown',
        occurredAt: '2025-01-02T03:04:06.001Z',
        schemaVersion: 1,
      });
    });

    it('given partial metadata, when mapped, then its own fields are kept over the defaults', () => {
      const recorded = toRecordedEvent({ event: clientEvent({ metadata: { actor: 'user-9', extra: true } }) });

      expect(recorded.metadata).toMatchObject({ actor: 'user-9', extra: true, schemaVersion: 1 });
    });

    it('given data the client could not parse (left as a string), when mapped, then it throws naming the event', () => {
      expect(() => toRecordedEvent({ event: clientEvent({ data: '{not json' }) })).toThrow(/data of event .* in match-abc is not JSON/);
    });

    it('given a resolved event without an event, when mapped, then it throws', () => {
      expect(() => toRecordedEvent({} as ClientResolvedEvent)).toThrow(/without an event/);
    });

    it('given an event without a position (server before 22.6), when mapped, then it throws clearly', () => {
      expect(() => toRecordedEvent({ event: clientEvent({ position: undefined }) })).toThrow(/22\.6 and later/);
    });
  });

  describe('toClientReadStreamOptions', () => {
    it('given no options, when mapped, then it reads forwards from the start without a count', () => {
      expect(toClientReadStreamOptions()).toEqual({ direction: FORWARDS, fromRevision: START });
    });

    it('given backwards without a revision, when mapped, then it starts at the end', () => {
      expect(toClientReadStreamOptions({ direction: 'backwards' })).toEqual({ direction: BACKWARDS, fromRevision: END });
    });

    it('given explicit revisions and a count, when mapped, then they pass through (revision as bigint)', () => {
      expect(toClientReadStreamOptions({ direction: 'forwards', fromRevision: 1, maxCount: 3 })).toEqual({
        direction: FORWARDS,
        fromRevision: 1n,
        maxCount: 3,
      });
      expect(toClientReadStreamOptions({ direction: 'backwards', fromRevision: 'start' }).fromRevision).toBe(START);
      expect(toClientReadStreamOptions({ fromRevision: 'end' }).fromRevision).toBe(END);
    });

    it('given an invalid revision or count, when mapped, then it throws', () => {
      expect(() => toClientReadStreamOptions({ fromRevision: -1 })).toThrow(/Invalid fromRevision/);
      expect(() => toClientReadStreamOptions({ maxCount: -1 })).toThrow(/Invalid maxCount/);
    });
  });

  describe('toReadAllPlan / acceptsPosition / continueReadAllPlan', () => {
    it('given no options, when planned, then it reads forwards from the start without a limit', () => {
      const plan = toReadAllPlan();

      expect(plan).toEqual({ direction: FORWARDS, fromPosition: START, bound: 0, limit: Infinity });
      expect(acceptsPosition(plan, 1)).toBe(true);
    });

    it('given after n, when planned, then the read starts at n (inclusive) and the event at n is skipped', () => {
      const plan = toReadAllPlan({ after: 500, maxCount: 2 });

      expect(plan).toEqual({ direction: FORWARDS, fromPosition: { commit: 500n, prepare: 500n }, bound: 500, limit: 2 });
      expect(acceptsPosition(plan, 500)).toBe(false);
      expect(acceptsPosition(plan, 499)).toBe(false);
      expect(acceptsPosition(plan, 501)).toBe(true);
    });

    it('given backwards without before, when planned, then it reads from the end and accepts everything', () => {
      const plan = toReadAllPlan({ direction: 'backwards', maxCount: 1 });

      expect(plan).toEqual({ direction: BACKWARDS, fromPosition: END, bound: Infinity, limit: 1 });
      expect(acceptsPosition(plan, Number.MAX_SAFE_INTEGER)).toBe(true);
    });

    it('given backwards before n, when planned, then the event at n is skipped and earlier ones accepted', () => {
      const plan = toReadAllPlan({ direction: 'backwards', before: 300 });

      expect(plan.fromPosition).toEqual({ commit: 300n, prepare: 300n });
      expect(acceptsPosition(plan, 300)).toBe(false);
      expect(acceptsPosition(plan, 299)).toBe(true);
    });

    it('given backwards before 0 or 1, when planned, then nothing is to be read', () => {
      expect(toReadAllPlan({ direction: 'backwards', before: 0 }).limit).toBe(0);
      expect(toReadAllPlan({ direction: 'backwards', before: 1 }).limit).toBe(0);
    });

    it('given a page ended at position p, when continuing, then the next page starts at p and skips it', () => {
      const next = continueReadAllPlan(toReadAllPlan({ after: 10, maxCount: 5 }), 80, 3);

      expect(next).toEqual({ direction: FORWARDS, fromPosition: { commit: 80n, prepare: 80n }, bound: 80, limit: 3 });
      expect(acceptsPosition(next, 80)).toBe(false);
      const back = continueReadAllPlan(toReadAllPlan({ direction: 'backwards' }), 80, Infinity);
      expect(acceptsPosition(back, 79)).toBe(true);
      expect(acceptsPosition(back, 80)).toBe(false);
    });

    it('given an invalid after or maxCount, when planned, then it throws', () => {
      expect(() => toReadAllPlan({ after: -5 })).toThrow(/Invalid position/);
      expect(() => toReadAllPlan({ maxCount: 1.5 })).toThrow(/Invalid maxCount/);
    });
  });
});
