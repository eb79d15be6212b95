import { deciderKit } from '../../../test/support/decider-kit';
import { recipeIds, type SharedRecipeCommand, sharedRecipeDecider } from './shared-recipe';

const { given, history } = deciderKit(sharedRecipeDecider, new Date('2026-11-23T10:00:00.000Z'));
const share: SharedRecipeCommand = {
  kind: 'share',
  recipe: { recipe_id: 'r1', post_id: 'p1', author_id: 'u1', title: 't', description: '', community: null, recipe_file: 'dir/12_3_recipe.json', persona: '', action_summary: '', chat_recipe_id: null, chat_recipe_version: null },
};

describe('shared recipe', () => {
  it.each([
    ['12_3_recipe.json', { prompt_id: 12, flow_id: 3 }],
    ['a/b/12_3_recipe.json', { prompt_id: 12, flow_id: 3 }],
    ['12_recipe.json', { prompt_id: 0, flow_id: 0 }],
    ['x_3_recipe.json', { prompt_id: 0, flow_id: 0 }],
    ['99999999999999999999_1_recipe.json', { prompt_id: 0, flow_id: 0 }],
  ])('given the file %p, then the ids are %p', (file, ids) => expect(recipeIds(file)).toEqual(ids));

  it('given a shared recipe, when forked twice, then the counts are 1 then 2 and the author is named', () => {
    const first = given(...history(share)).when({ kind: 'fork', forkedBy: 'u2' });
    expect(first.events()[0].data).toMatchObject({ fork_count: 1, post_author_id: 'u1' });
    expect(given(...history(share, { kind: 'fork', forkedBy: 'u2' })).when({ kind: 'fork', forkedBy: 'u2' }).events()[0].data).toMatchObject({ fork_count: 2 });
  });

  it('given nothing, when forked, then the recipe is not found', () => given().when({ kind: 'fork', forkedBy: 'u' }).thenRefused('not_found', 'Recipe not found'));
});
