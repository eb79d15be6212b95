import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { SKILLS, type SkillDoc, skillsProjection as projection } from './skills.projection';

const streamId = 'skill-haiku';
const ingested = (version: number, instructions: string) =>
  recorded(
    'SkillIngested',
    { name: 'haiku', description: 'writes haiku', instructions, source: { kind: 'upload' }, sha256: `s${version}`, version, ingested_by: 'u1', ingested_at: `t${version}` },
    { streamId },
  );
const doc = (store: EmbeddedReadStore) => store.collection<SkillDoc>(SKILLS).findOne({ _id: 'haiku' });

describe('skills projection', () => {
  it('given two versions, then the latest is active', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, ingested(1, 'old'), ingested(2, 'new'));
    expect(await doc(store)).toMatchObject({ active: true, version: 2, instructions: 'new', source: { kind: 'upload' } });
  });

  it('given a removal, then it is inactive; a new ingestion makes it active again', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, ingested(1, 'a'), recorded('SkillRemoved', { name: 'haiku', version: 1, removed_by: 'u1', removed_at: 'tr' }, { streamId }));
    expect(await doc(store)).toMatchObject({ active: false, removed_at: 'tr' });
    await applyAll(projection, store, ingested(2, 'b'));
    expect(await doc(store)).toMatchObject({ active: true, removed_at: null, version: 2 });
  });
});
