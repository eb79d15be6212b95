/** `recipes`: one document per shared recipe (the Recipe record of social-routes §0.5), with its author and title for lists. */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const RECIPES = 'recipes';

export interface RecipeDoc extends Doc {
  id: string;
  post_id: string;
  author_id: string;
  title: string;
  recipe_file: string;
  prompt_id: number;
  flow_id: number;
  persona: string;
  action_summary: string;
  fork_count: number;
  chat_recipe_id: string | null;
  chat_recipe_version: number | null;
  created_at: string;
}

export const recipesProjection = defineProjection({
  name: 'recipes',
  version: 1,
  collections: [RECIPES],
  indexes: [{ collection: RECIPES, spec: { keys: { fork_count: -1, created_at: -1 } } }],
  on: {
    RecipeShared: (event, writer) => {
      const d = event.data;
      applyOnce(writer, RECIPES, d.recipe_id, event, {
        $set: {
          id: d.recipe_id,
          post_id: d.post_id,
          author_id: d.author_id,
          title: d.title,
          recipe_file: d.recipe_file,
          prompt_id: d.prompt_id,
          flow_id: d.flow_id,
          persona: d.persona,
          action_summary: d.action_summary,
          fork_count: 0,
          chat_recipe_id: d.chat_recipe_id,
          chat_recipe_version: d.chat_recipe_version,
          created_at: d.created_at,
        },
      });
    },
    RecipeForked: (event, writer) =>
      applyOnce(writer, RECIPES, event.data.recipe_id, event, { $set: { fork_count: event.data.fork_count } }, { upsert: false }),
  },
});
