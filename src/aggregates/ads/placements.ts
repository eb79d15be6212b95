/**
 * The ad placements (social-routes §16): four, seeded, no route manages them.
 * A placement's id is its name; `max_ads` is how many ads it shows at once.
 */
export interface AdPlacement {
  id: string;
  name: string;
  max_ads: number;
}

export const AD_PLACEMENTS: readonly AdPlacement[] = [
  { id: 'feed_top', name: 'feed_top', max_ads: 1 },
  { id: 'sidebar', name: 'sidebar', max_ads: 2 },
  { id: 'region_page', name: 'region_page', max_ads: 1 },
  { id: 'post_interstitial', name: 'post_interstitial', max_ads: 1 },
];

export const PLACEMENT_NAMES: readonly string[] = AD_PLACEMENTS.map((p) => p.name);
export const DEFAULT_PLACEMENT = 'feed_top';

export const isPlacement = (name: string): boolean => PLACEMENT_NAMES.includes(name);
