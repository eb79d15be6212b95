import type { ICommand } from '@nestjs/cqrs';
import { recordedEvent as recorded } from '../../../test/support/saga-kit';
import { reactions } from './reactions';

class Note implements ICommand {
  constructor(readonly what: string) {}
}

describe('reactions', () => {
  const manager = reactions(
    {
      ContestJoined: (event) => new Note(`joined ${event.data.track}`),
      GoalAccepted: (event) => [new Note(`accepted ${event.data.goal_id}`), new Note('twice')],
      SubtaskFailed: (event) => (event.data.will_retry ? new Note('retry') : null),
    },
    { RecipePublished: (event) => new Note(`published ${String(event.data.recipe_id)}`) },
  );

  it('given reactions, then the event types are their keys, the catalogue’s and the others', () => {
    expect(manager.eventTypes).toEqual(['ContestJoined', 'GoalAccepted', 'SubtaskFailed', 'RecipePublished']);
  });

  it('when an event calls for one command, several or none, then react lists them', async () => {
    expect(await manager.react(recorded('ContestJoined', { user_id: 'u1', track: 'digital' }))).toEqual([new Note('joined digital')]);
    expect(await manager.react(recorded('GoalAccepted', { goal_id: 'g1' }))).toEqual([new Note('accepted g1'), new Note('twice')]);
    expect(await manager.react(recorded('SubtaskFailed', { will_retry: false }))).toEqual([]);
    expect(await manager.react(recorded('RecipePublished', { recipe_id: 'r1' }))).toEqual([new Note('published r1')]);
  });

  it('given an event it has no reaction to, then no command', async () => {
    expect(await manager.react(recorded('UserRegistered', {}))).toEqual([]);
  });

  it('refuses two reactions to one type and a process manager that reacts to nothing', () => {
    expect(() => reactions({ ContestJoined: () => null }, { ContestJoined: () => null })).toThrow('two reactions to ContestJoined');
    expect(() => reactions({})).toThrow('at least one event type');
  });
});
