import { InProcessBus } from '../../src/infrastructure/bus/in-process/in-process-bus';
import { describeMessageBusContract } from './message-bus.contract';

describeMessageBusContract('in-process', async () => {
  // short retry delay keeps the suite fast; failures are expected in the retry test
  const bus = new InProcessBus({ partitions: 4, retryDelayMs: 10, onHandlerError: () => undefined });
  return { bus, cleanup: () => bus.close() };
});
