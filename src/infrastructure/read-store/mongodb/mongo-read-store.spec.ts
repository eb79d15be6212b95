import { MongoReadStore } from './mongo-read-store';

describe('MongoReadStore.connect (no server)', () => {
  it('given nothing listens at the address, when connecting, then it rejects with a clear message and without the URL', async () => {
    const started = Date.now();
    const error = await MongoReadStore.connect({
      url: 'mongodb://reader:secret@127.0.0.1:1/?directConnection=true',
      database: 'read_models',
      clientOptions: { serverSelectionTimeoutMS: 300, connectTimeoutMS: 300 },
    }).then(
      () => new Error('expected connect to fail'),
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/^MongoReadStore could not reach MongoDB \(database read_models\)/);
    expect(error.message).not.toContain('secret');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('given no database name, when connecting, then it is rejected before any connection', async () => {
    await expect(MongoReadStore.connect({ url: 'mongodb://127.0.0.1:1', database: '' })).rejects.toThrow(TypeError);
  });
});
