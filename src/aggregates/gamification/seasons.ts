/**
 * Seasons (social-routes §15): the calendar quarters of UTC, so a current
 * season always exists without anyone creating it. A season's id is
 * `<year>-q<1..4>` (`2026-q4`); its window is [first instant of the quarter,
 * last millisecond of it]. Each quarter has a theme and a name.
 */

export interface Season {
  id: string;
  name: string;
  description: string;
  theme: string;
  starts_at: string;
  ends_at: string;
}

const THEMES = [
  { theme: 'frost', name: 'Frost', description: 'The first quarter: new beginnings in the cold.' },
  { theme: 'bloom', name: 'Bloom', description: 'The second quarter: ideas grow and spread.' },
  { theme: 'ember', name: 'Ember', description: 'The third quarter: the community runs warm.' },
  { theme: 'harvest', name: 'Harvest', description: 'The last quarter: gather what the year grew.' },
] as const;

const SEASON_ID = /^(\d{4})-q([1-4])$/;

function seasonOfQuarter(year: number, quarter: number): Season {
  const start = Date.UTC(year, (quarter - 1) * 3, 1);
  const end = Date.UTC(year, quarter * 3, 1) - 1;
  const t = THEMES[quarter - 1];
  return {
    id: `${year}-q${quarter}`,
    name: `${t.name} ${year}`,
    description: t.description,
    theme: t.theme,
    starts_at: new Date(start).toISOString(),
    ends_at: new Date(end).toISOString(),
  };
}

/** The season an instant falls in. */
export function seasonOf(at: Date): Season {
  return seasonOfQuarter(at.getUTCFullYear(), Math.floor(at.getUTCMonth() / 3) + 1);
}

/** The season of an id such as `2026-q4`, or null for anything else. */
export function seasonById(id: string): Season | null {
  const match = SEASON_ID.exec(id);
  if (!match) return null;
  const year = Number(match[1]);
  if (year < 1970) return null;
  return seasonOfQuarter(year, Number(match[2]));
}

/** Whether `at` lies within the season's window. */
export function inSeason(season: Season, at: Date): boolean {
  const t = at.getTime();
  return t >= Date.parse(season.starts_at) && t <= Date.parse(season.ends_at);
}
