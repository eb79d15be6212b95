import { deciderKit } from '../../../test/support/decider-kit';
import { type SkillCommand, skillDecider } from './skill';

const now = new Date('2026-11-23T10:00:00.000Z');
const at = now.toISOString();
const { given, history } = deciderKit(skillDecider, now);

const ingest = (sha256 = 'a'): SkillCommand => ({ kind: 'ingest', name: 'haiku', description: 'writes haiku', instructions: 'Write 5-7-5.', source: { kind: 'upload' }, sha256, by: 'u1' });
const remove: SkillCommand = { kind: 'remove', name: 'haiku', by: 'u1' };

describe('skill', () => {
  it('given nothing, when ingested, then SkillIngested version 1', () =>
    given()
      .when(ingest())
      .then({ type: 'SkillIngested', data: { name: 'haiku', description: 'writes haiku', instructions: 'Write 5-7-5.', source: { kind: 'upload' }, sha256: 'a', version: 1, ingested_by: 'u1', ingested_at: at } }));

  it('given the same content, when ingested again, then nothing; other content is version 2', () => {
    given(...history(ingest())).when(ingest()).thenNothing();
    expect(given(...history(ingest())).when(ingest('b')).events()[0]).toMatchObject({ data: { version: 2, sha256: 'b' } });
  });

  it('given a skill, when removed, then SkillRemoved; removing again is 404; ingesting again counts on', () => {
    given(...history(ingest())).when(remove).then({ type: 'SkillRemoved', data: { name: 'haiku', version: 1, removed_by: 'u1', removed_at: at } });
    given(...history(ingest(), remove)).when(remove).thenRefused('not_found', 'no skill named haiku');
    expect(given(...history(ingest(), remove)).when(ingest()).events()[0]).toMatchObject({ data: { version: 2 } });
  });

  it('given nothing, when removed, then 404', () => given().when(remove).thenRefused('not_found'));
});
