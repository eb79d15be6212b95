import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import { CHAT_BODY_SCHEMA, chatBody, HISTORY_BODY_SCHEMA, historyBody, PROMPT_MAX_CHARS, VISUAL_BODY_SCHEMA, visualBody } from './chat.requests';

const authenticated = { userIdRequired: false };
const ids = ['u-1', ' u@x.io ', 'a b', 'é', 'x'.repeat(128), 'x'.repeat(129)];
const prompts = ['hello', '\n', 'x'.repeat(PROMPT_MAX_CHARS), 'x'.repeat(PROMPT_MAX_CHARS + 1), '😀'.repeat(PROMPT_MAX_CHARS)];

describe('the core routes’ body schemas agree with their readers', () => {
  it('given POST /chat bodies, then the reader accepts exactly what CHAT_BODY_SCHEMA accepts', () => {
    expectReaderAgreesWithSchema(CHAT_BODY_SCHEMA, (b) => chatBody(b, authenticated), {
      valid: { user_id: 'u1', prompt_id: 'p1', prompt: 'hi' },
      candidates: {
        user_id: ids,
        prompt_id: ids,
        prompt: prompts,
        task_source: ['own', 'hive', 'idle', 'other'],
        model_config: [{ model: 'gpt-4o' }, { fast_model: null }, { expert_model: 'a b' }, { model: 3 }, { other: 1 }],
      },
    });
  });

  it('given POST /visual_agent bodies, then the reader accepts exactly what VISUAL_BODY_SCHEMA accepts', () => {
    expectReaderAgreesWithSchema(VISUAL_BODY_SCHEMA, (b) => visualBody(b, authenticated), {
      valid: { prompt_id: 'p1', prompt: 'what is it?', image_url: 'https://example.com/a.png' },
      candidates: {
        image_url: ['http://x', ' HTTPS://example.com/a?b#c ', 'data:image/png;base64,AAAA', 'ftp://x', 'http://', 'example.com', 'data:'],
        prompt_id: ids,
        prompt: prompts,
      },
    });
  });

  it('given POST /add_history bodies, then the reader accepts exactly what HISTORY_BODY_SCHEMA accepts', () => {
    const message = { role: 'user', content: 'hi' };
    expectReaderAgreesWithSchema(HISTORY_BODY_SCHEMA, (b) => historyBody(b, authenticated), {
      valid: { prompt_id: 'p1', history: [message] },
      candidates: {
        history: [
          [message, { role: 'assistant', content: '' }],
          [{ role: 'system', content: 'x' }],
          [{ role: 'user' }],
          [{ role: 'user', content: 3 }],
          [{ role: 'user', content: 'x'.repeat(PROMPT_MAX_CHARS + 1) }],
          [null],
          Array.from({ length: 100 }, () => message),
          Array.from({ length: 101 }, () => message),
        ],
      },
    });
  });


  it('given the local guest, then user_id is required, as the schema’s description says', () => {
    expect(() => chatBody({ prompt_id: 'p', prompt: 'x' }, { userIdRequired: true })).toThrow('user_id is required (a non-empty string)');
  });
});
