import { Writable } from 'node:stream';
import { createRootLogger, PinoLoggerService } from './logger';

function capture(level: Parameters<typeof createRootLogger>[0]['level']) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createRootLogger({ level, format: 'json', destination }) };
}

describe('logger', () => {
  it("given Nest's levels, when logging, then pino's levels with the context as a field", () => {
    const { lines, logger } = capture('verbose');
    const nest = new PinoLoggerService(logger);
    nest.log('hello', 'Main');
    nest.warn('careful', 'Sagas');
    nest.debug('detail', 'Relays');
    nest.verbose('chatty', 'Relays');
    nest.error('broke', 'Error: broke\n    at x', 'Main');
    expect(lines.map((l) => [l.level, l.context, l.msg])).toEqual([
      ['info', 'Main', 'hello'],
      ['warn', 'Sagas', 'careful'],
      ['debug', 'Relays', 'detail'],
      ['trace', 'Relays', 'chatty'],
      ['error', 'Main', 'broke'],
    ]);
    expect(lines[4].stack).toContain('at x');
  });

  it('given LOG_LEVEL=warn, when logging at log and debug, then nothing is written', () => {
    const { lines, logger } = capture('warn');
    const nest = new PinoLoggerService(logger);
    nest.log('no');
    nest.debug('no');
    nest.warn('yes');
    expect(lines.map((l) => l.msg)).toEqual(['yes']);
  });

  it('given an object with credentials, when logged, then they are redacted', () => {
    const { lines, logger } = capture('log');
    logger.info({ req: { headers: { authorization: 'Bearer secret-token', 'x-api-key': 'ak_1_x' } }, body: { password: 'hunter2' } }, 'x');
    const text = JSON.stringify(lines);
    expect(text).not.toContain('secret-token');
    expect(text).not.toContain('ak_1_x');
    expect(text).not.toContain('hunter2');
  });
});
