/**
 * The key store contract (src/infrastructure/personal-data/key-store.port.ts):
 * every adapter passes it unchanged.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { KeyStore } from '../../src/infrastructure/personal-data/key-store.port';

export interface KeyStoreFixture {
  store: KeyStore;
  /** the same store closed and opened again */
  reopen(): Promise<KeyStore>;
  cleanup(): Promise<void>;
}

export function describeKeyStoreContract(name: string, open: () => Promise<KeyStoreFixture>): void {
  describe(`key store contract: ${name}`, () => {
    let fixture: KeyStoreFixture;
    let store: KeyStore;
    const subject = () => randomUUID();

    beforeAll(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterAll(async () => fixture?.cleanup());

    it('given no key, when asking for the current one, then version 1 of 32 bytes is created', async () => {
      const key = await store.current(subject(), 'personal');
      expect(key.version).toBe(1);
      expect(key.key).toHaveLength(32);
    });

    it('given a key, when asking again, then the same key', async () => {
      const s = subject();
      const first = await store.current(s, 'personal');
      const again = await store.current(s, 'personal');
      expect(again).toEqual(first);
      expect(await store.get(s, 'personal', 1)).toEqual(first.key);
    });

    it('given 20 concurrent first requests for one subject, then they all get one key', async () => {
      const s = subject();
      const keys = await Promise.all(Array.from({ length: 20 }, () => store.current(s, 'personal')));
      expect(new Set(keys.map((k) => `${k.version}:${k.key.toString('hex')}`)).size).toBe(1);
    });

    it('given two purposes, then two different keys', async () => {
      const s = subject();
      const [a, b] = [await store.current(s, 'personal'), await store.current(s, 'content')];
      expect(a.key.equals(b.key)).toBe(false);
    });

    it('given a rotation, then the current key is the next version and the old one still opens', async () => {
      const s = subject();
      const first = await store.current(s, 'personal');
      const rotated = await store.rotate(s, 'personal');
      expect(rotated.version).toBe(2);
      expect(await store.current(s, 'personal')).toEqual(rotated);
      expect(await store.get(s, 'personal', 1)).toEqual(first.key);
    });

    it('given an erasure, then every version is gone, the other purpose stays, and a new key takes the next version', async () => {
      const s = subject();
      await store.current(s, 'personal');
      await store.rotate(s, 'personal');
      const content = await store.current(s, 'content');
      expect(await store.erase(s, 'personal')).toBe(2);
      expect(await store.get(s, 'personal', 1)).toBeNull();
      expect(await store.get(s, 'personal', 2)).toBeNull();
      expect(await store.get(s, 'content', 1)).toEqual(content.key);
      expect((await store.current(s, 'personal')).version).toBe(3);
      expect(await store.erase(s, 'content')).toBe(1);
      expect(await store.erase(s, 'content')).toBe(0);
    });

    it('given imported keys, then they open; an erased version is not brought back by an import', async () => {
      const s = subject();
      const key = randomBytes(32);
      await store.import([{ subject: s, purpose: 'personal', version: 4, key }]);
      expect(await store.get(s, 'personal', 4)).toEqual(key);
      await store.erase(s, 'personal');
      await store.import([{ subject: s, purpose: 'personal', version: 4, key }]);
      expect(await store.get(s, 'personal', 4)).toBeNull();
    });

    it('given a key and an erasure, when the store is reopened, then the key is still there and the erased one still gone', async () => {
      const kept = subject();
      const erased = subject();
      const key = await store.current(kept, 'personal');
      await store.current(erased, 'personal');
      await store.erase(erased, 'personal');
      store = await fixture.reopen();
      expect(await store.get(kept, 'personal', 1)).toEqual(key.key);
      expect(await store.get(erased, 'personal', 1)).toBeNull();
    });
  });
}
