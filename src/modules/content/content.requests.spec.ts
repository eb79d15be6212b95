import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import {
  COMMENT_BODY_SCHEMA,
  COMMENT_EDIT_BODY_SCHEMA,
  commentRequest,
  COMMUNITY_BODY_SCHEMA,
  FEED_BODY_SCHEMA,
  feedRequest,
  COMMUNITY_EDIT_BODY_SCHEMA,
  communityEditRequest,
  communityRequest,
  POST_BODY_SCHEMA,
  POST_EDIT_BODY_SCHEMA,
  postEditRequest,
  postRequest,
  REPORT_BODY_SCHEMA,
  reportRequest,
  REVIEW_BODY_SCHEMA,
  reviewRequest,
  USER_ID_BODY_SCHEMA,
  userIdRequest,
} from './content.requests';

const long = (n: number) => 'x'.repeat(n);

describe('the content routes’ body schemas agree with their readers', () => {
  it('given POST /posts bodies, then the reader accepts exactly what the schema accepts', () =>
    expectReaderAgreesWithSchema(POST_BODY_SCHEMA, postRequest, {
      valid: { title: 'Hello', content: 'x' },
      candidates: {
        title: [long(300), long(301), '  '],
        content: [long(40_000), long(40_001)],
        content_type: ['code', 'recipe', 'poem'],
        media_urls: [['https://x'], [long(2049)], Array.from({ length: 21 }, () => 'a')],
        dynamic_layout: [{ a: 1 }],
      },
    }));

  it('given POST /posts bodies with a caption, then they agree too', () =>
    expectReaderAgreesWithSchema(POST_BODY_SCHEMA, postRequest, { valid: { caption: 'Hello' }, candidates: { caption: [long(301)], title: [long(300)] } }));

  it('given PATCH /posts bodies, then they agree', () =>
    expectReaderAgreesWithSchema(POST_EDIT_BODY_SCHEMA, postEditRequest, { valid: { title: 'x' }, candidates: { title: [long(301)], content: [long(40_001)] } }));

  it('given report bodies, then they agree', () =>
    expectReaderAgreesWithSchema(REPORT_BODY_SCHEMA, reportRequest, { valid: { reason: 'spam' }, candidates: { reason: [long(50), long(51)] } }));

  it('given comment bodies, then they agree', () =>
    expectReaderAgreesWithSchema(COMMENT_BODY_SCHEMA, commentRequest, {
      valid: { content: 'hi' },
      candidates: { content: [long(10_000), long(10_001)], parent_id: ['c1', 0, '0'] },
    }));

  it('given comment bodies with text, then they agree', () =>
    expectReaderAgreesWithSchema(COMMENT_BODY_SCHEMA, commentRequest, { valid: { text: 'hi' }, candidates: { text: [long(10_001)] } }));

  it('given comment edits, then they agree', () =>
    expectReaderAgreesWithSchema(COMMENT_EDIT_BODY_SCHEMA, (body) => commentRequest(body, false), { valid: { content: 'x' }, candidates: { content: [long(10_001)] } }));

  it('given community bodies, then they agree', () =>
    expectReaderAgreesWithSchema(COMMUNITY_BODY_SCHEMA, communityRequest, { valid: { name: 'rust' }, candidates: { name: ['a', 'a b', long(50), long(51), 'ok-name_1'] } }));

  it('given community edits, then they agree', () =>
    expectReaderAgreesWithSchema(COMMUNITY_EDIT_BODY_SCHEMA, communityEditRequest, { valid: {}, candidates: { display_name: [long(201)] } }));

  it('given user_id bodies, then they agree', () => expectReaderAgreesWithSchema(USER_ID_BODY_SCHEMA, userIdRequest, { valid: { user_id: 'u1' } }));

  it('given review bodies, then they agree', () => expectReaderAgreesWithSchema(REVIEW_BODY_SCHEMA, reviewRequest, { valid: {}, candidates: { status: [long(51)] } }));

  it('given feed bodies, then they agree', () =>
    expectReaderAgreesWithSchema(FEED_BODY_SCHEMA, feedRequest, { valid: { url: 'https://example.com/feed' }, candidates: { limit: [1, 50, 51, 0, 2.5], url: [long(2049)] } }));
});
