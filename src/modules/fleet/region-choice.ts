/**
 * Which region a local node joins (POST /hierarchy/register-local,
 * /hierarchy/assign-region): the nearest regional node when both report a
 * position (geo_info lat/lon), otherwise the one with the fewest local nodes;
 * ties go to the lower region id. Null when there is no region.
 */
export interface RegionCandidate {
  region_id: string;
  geo_info: Record<string, unknown>;
  local_count: number;
}

const position = (geo: Record<string, unknown>): { lat: number; lon: number } | null => {
  const { lat, lon } = geo;
  return typeof lat === 'number' && typeof lon === 'number' && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : null;
};

/** Great-circle distance in km. */
function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function chooseRegion(geo: Record<string, unknown>, regions: RegionCandidate[]): string | null {
  if (regions.length === 0) return null;
  const here = position(geo);
  const byId = [...regions].sort((a, b) => a.region_id.localeCompare(b.region_id));
  const located = here ? byId.filter((r) => position(r.geo_info) !== null) : [];
  if (here && located.length > 0) {
    return located.reduce((best, r) => (distanceKm(here, position(r.geo_info)!) < distanceKm(here, position(best.geo_info)!) ? r : best)).region_id;
  }
  return byId.reduce((best, r) => (r.local_count < best.local_count ? r : best)).region_id;
}
