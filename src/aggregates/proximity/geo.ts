/**
 * Geometry of the location features (social-routes §13): great-circle
 * distance, geohash cells (the index key of the pings read model) and the
 * distance texts. A geohash of precision 6 names a cell about 1.2 km × 0.6 km;
 * a point's cell and its 8 neighbours cover every point within 500 m of it at
 * any latitude people live at (|lat| ≤ 60°: the cell is ≥ 0.55 km wide there).
 */
const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';
export const GEOHASH_PRECISION = 6;
const EARTH_RADIUS_M = 6_371_000;

export interface LatLon {
  lat: number;
  lon: number;
}

/** Metres between two points (haversine). */
export function distanceMeters(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The geohash of a point: alternate longitude and latitude bisections, 5 bits a character. */
export function geohash({ lat, lon }: LatLon, precision = GEOHASH_PRECISION): string {
  const range = { lat: [-90, 90], lon: [-180, 180] };
  let hash = '';
  let bits = 0;
  let value = 0;
  let even = true;
  while (hash.length < precision) {
    const [axis, coordinate] = even ? (['lon', lon] as const) : (['lat', lat] as const);
    const mid = (range[axis][0] + range[axis][1]) / 2;
    value <<= 1;
    if (coordinate >= mid) {
      value |= 1;
      range[axis][0] = mid;
    } else range[axis][1] = mid;
    even = !even;
    bits += 1;
    if (bits === 5) {
      hash += BASE32[value];
      bits = 0;
      value = 0;
    }
  }
  return hash;
}

/** The size in degrees of a cell of this precision. */
function cellSize(precision: number): { lat: number; lon: number } {
  const bits = precision * 5;
  const lonBits = Math.ceil(bits / 2);
  return { lat: 180 / 2 ** (bits - lonBits), lon: 360 / 2 ** lonBits };
}

/** The point's cell and its 8 neighbours (fewer at the poles), each once. */
export function cellAndNeighbours(point: LatLon, precision = GEOHASH_PRECISION): string[] {
  const size = cellSize(precision);
  const cells = new Set<string>();
  for (const dLat of [-1, 0, 1]) {
    for (const dLon of [-1, 0, 1]) {
      const lat = point.lat + dLat * size.lat;
      if (lat > 90 || lat < -90) continue;
      let lon = point.lon + dLon * size.lon;
      if (lon >= 180) lon -= 360;
      if (lon < -180) lon += 360;
      cells.add(geohash({ lat, lon }, precision));
    }
  }
  return [...cells];
}

/** §13's match distance text: thresholds of 50, 100 and 200 m. */
export function distanceBucket(meters: number): string {
  if (meters <= 50) return '~50m away';
  if (meters <= 100) return '~100m away';
  if (meters <= 200) return '~200m away';
  return '~500m away';
}

/**
 * The longest geohash precision (at most 6) whose cell around the point is at
 * least `radiusMeters` wide and tall, so that the point's cell and its 8
 * neighbours cover the whole circle: the key of a radius lookup by indexed
 * equality (precision 6 ≥ 0.55 km, 5 ≥ 2.4 km, 4 ≥ 19 km, 3 ≥ 78 km at |lat| ≤ 60°).
 */
export function coveringPrecision(point: LatLon, radiusMeters: number): number {
  const metresPerDegree = (Math.PI / 180) * EARTH_RADIUS_M;
  for (let precision = GEOHASH_PRECISION; precision > 1; precision -= 1) {
    const size = cellSize(precision);
    // the narrowest parallel the neighbouring cells reach
    const lat = Math.min(90, Math.abs(point.lat) + size.lat);
    const width = size.lon * metresPerDegree * Math.cos((lat * Math.PI) / 180);
    if (Math.min(size.lat * metresPerDegree, width) >= radiusMeters) return precision;
  }
  return 1;
}

/** §13's missed-connection distance text: `< 100m`, `< 500m`, `< 1km`, else `~<N>km`. */
export function distanceLabel(meters: number): string {
  if (meters < 100) return '< 100m';
  if (meters < 500) return '< 500m';
  if (meters < 1000) return '< 1km';
  return `~${Math.round(meters / 1000)}km`;
}
