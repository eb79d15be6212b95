import { MongoServerError } from 'mongodb';
import { DuplicateKeyError } from '../read-store.port';
import { isNamespaceNotFound, mapDriverError, parseDuplicateKey, toDuplicateKeyError } from './mongo-errors';

describe('MongoDB error mapping', () => {
  describe('parseDuplicateKey', () => {
    it('given an _id clash message, when parsed, then the key is the _id', () => {
      expect(
        parseDuplicateKey('E11000 duplicate key error collection: db.items index: _id_ dup key: { _id: "a" }'),
      ).toEqual({ _id: 'a' });
    });

    it('given a compound key with null, numbers and booleans, when parsed, then every field is read', () => {
      expect(
        parseDuplicateKey('E11000 duplicate key error collection: db.users index: t_1_e_1 dup key: { tenant: "t1", email: null, n: -2.5, ok: true }'),
      ).toEqual({ tenant: 't1', email: null, n: -2.5, ok: true });
    });

    it('given a dotted field name and escaped characters, when parsed, then the name and string are kept exactly', () => {
      expect(parseDuplicateKey('dup key: { owner.id: "say \\"hi\\"\\n\\u00e9" }')).toEqual({ 'owner.id': 'say "hi"\né' });
    });

    it('given wrapped values and nested documents, when parsed, then their content is read', () => {
      expect(
        parseDuplicateKey("dup key: { _id: ObjectId('65a1b2c3d4e5f60718293a4b'), at: new Date(1700000000000), sub: { a: [1, 'x'] } }"),
      ).toEqual({ _id: '65a1b2c3d4e5f60718293a4b', at: 1700000000000, sub: { a: [1, 'x'] } });
    });

    it('given an old server printing empty field names, when parsed, then the value is kept under ""', () => {
      expect(parseDuplicateKey('E11000 duplicate key error index: db.c.$_id_ dup key: { : "a" }')).toEqual({ '': 'a' });
    });

    it('given a message without a readable key, when parsed, then it gives null', () => {
      expect(parseDuplicateKey('E11000 duplicate key error')).toBeNull();
      expect(parseDuplicateKey('dup key: { _id: "unterminated }')).toBeNull();
      expect(parseDuplicateKey('dup key: "a"')).toBeNull();
    });
  });

  describe('toDuplicateKeyError', () => {
    it('given a server error with keyValue (MongoDB 4.2+), when mapped, then keyValue is the key', () => {
      const error = toDuplicateKeyError('users', { code: 11000, keyValue: { email: 'x@example.com' }, errmsg: 'dup key: { email: "other" }' });
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect(error.code).toBe(11000);
      expect(error.collection).toBe('users');
      expect(error.key).toEqual({ email: 'x@example.com' });
    });

    it('given a server error without keyValue (mongo-java-server, bulk write errors), when mapped, then the key comes from the message', () => {
      const error = toDuplicateKeyError('items', { code: 11000, errmsg: 'E11000 duplicate key error collection: db.items index: _id_ dup key: { _id: "p" }' });
      expect(error.key).toEqual({ _id: 'p' });
    });

    it('given an unreadable message, when mapped, then the key is empty but the error is still a DuplicateKeyError', () => {
      const error = toDuplicateKeyError('items', { code: 11000, message: 'E11000 duplicate key error' });
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect(error.key).toEqual({});
    });
  });

  describe('mapDriverError', () => {
    it('given a MongoServerError with code 11000, when mapped, then it becomes a DuplicateKeyError', () => {
      const driverError = new MongoServerError({
        errmsg: 'E11000 duplicate key error collection: db.c index: _id_ dup key: { _id: "a" }',
        code: 11000,
      });
      const mapped = mapDriverError('c', driverError);
      expect(mapped).toBeInstanceOf(DuplicateKeyError);
      expect((mapped as DuplicateKeyError).key).toEqual({ _id: 'a' });
    });

    it('given any other error, when mapped, then it is passed on unchanged', () => {
      const driverError = new MongoServerError({ errmsg: 'Performing an update on the path _id would modify the immutable field _id', code: 66 });
      expect(mapDriverError('c', driverError)).toBe(driverError);
      const plain = new TypeError('bad');
      expect(mapDriverError('c', plain)).toBe(plain);
    });
  });

  describe('isNamespaceNotFound', () => {
    it('given MongoDB code 26 or mongo-java-server "ns not found" without a code, when checked, then both are recognised', () => {
      expect(isNamespaceNotFound(new MongoServerError({ errmsg: 'ns not found', code: 26 }))).toBe(true);
      expect(isNamespaceNotFound(new MongoServerError({ errmsg: 'ns not found' }))).toBe(true);
    });

    it('given another error, when checked, then it is not', () => {
      expect(isNamespaceNotFound(new MongoServerError({ errmsg: 'not authorized', code: 13 }))).toBe(false);
      expect(isNamespaceNotFound(null)).toBe(false);
    });
  });
});
