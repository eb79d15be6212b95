import { KafkaBus } from '../../src/infrastructure/bus/kafka/kafka-bus';
import { describeWithService, serviceEndpoint } from '../support/services/registry';
import { describeMessageBusContract } from './message-bus.contract';

// The shared broker of this run (jest global setup). Every contract test uses
// its own topics and groups, so suites running at the same time do not meet.
describeWithService('kafka', 'MessageBus on Kafka', () => {
  describeMessageBusContract('kafka', async () => {
    const bus = new KafkaBus({
      brokers: serviceEndpoint('kafka')!.split(','),
      clientId: 'message-bus-contract',
      partitions: 3,
      // failures are expected in the retry test; keep its pause short
      retryDelayMs: 100,
      onHandlerError: () => undefined,
    });
    return { bus, cleanup: () => bus.close() };
  });
});
