import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import { WEBHOOK_BODY_SCHEMA, webhookRequest } from './bots.requests';

describe('the webhook body', () => {
  it('given any value of actions, then the reader accepts exactly what the schema accepts', () =>
    expectReaderAgreesWithSchema(WEBHOOK_BODY_SCHEMA, webhookRequest, {
      valid: { actions: [{ type: 'post', title: 't' }] },
      candidates: { actions: [[{ type: 'x' }], [{ type: 1 }], [null], [[]], Array.from({ length: 50 }, () => ({ type: 'vote' })), Array.from({ length: 51 }, () => ({ type: 'vote' }))] },
    }));
});
