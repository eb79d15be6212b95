import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { ONBOARDING, onboardingProjection as projection } from './onboarding.projection';

const step = (key: 'welcome' | 'first_post') => recorded('OnboardingStepCompleted', { user_id: 'ann', step: key, reward_type: 'xp', reward_amount: 10, completed_at: 't1' });

describe('onboarding projection', () => {
  it('given steps completed, then they are listed in the order done', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, step('first_post'), step('welcome'));
    expect(await store.collection(ONBOARDING).findOne({ _id: 'ann' })).toMatchObject({ steps_completed: ['first_post', 'welcome'], completed_at: null, tutorial_dismissed: false });
  });

  it('given a step event applied twice (a replay), then it is listed once', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const event = step('welcome');
    await applyAll(projection, store, event, event);
    expect(await store.collection(ONBOARDING).findOne({ _id: 'ann' })).toMatchObject({ steps_completed: ['welcome'] });
  });

  it('given a dismissal before any step, then the document starts dismissed with no steps', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, recorded('OnboardingDismissed', { user_id: 'ann', dismissed_at: 't' }), step('welcome'));
    expect(await store.collection(ONBOARDING).findOne({ _id: 'ann' })).toMatchObject({ steps_completed: ['welcome'], tutorial_dismissed: true, completed_at: null });
  });
});
