import { cellAndNeighbours, coveringPrecision, distanceBucket, distanceLabel, distanceMeters, geohash } from './geo';

describe('geo', () => {
  it('geohash agrees with the published reference value', () => {
    // the reference example of geohash.org: 57.64911, 10.40744 → u4pruydqqvj
    expect(geohash({ lat: 57.64911, lon: 10.40744 }, 11)).toBe('u4pruydqqvj');
  });

  it('distance: one degree of latitude is about 111.2 km; a point is 0 m from itself', () => {
    expect(distanceMeters({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(111_195, -2);
    expect(distanceMeters({ lat: 52.52, lon: 13.405 }, { lat: 52.52, lon: 13.405 })).toBe(0);
  });

  it('every point within 500 m of another lies in its cell or a neighbour (sampled around a city)', () => {
    const centre = { lat: 52.52, lon: 13.405 };
    for (let i = 0; i < 500; i += 1) {
      const angle = (i / 500) * 2 * Math.PI;
      const r = 500 * ((i % 10) / 10 + 0.09);
      const other = { lat: centre.lat + (r * Math.cos(angle)) / 111_195, lon: centre.lon + (r * Math.sin(angle)) / (111_195 * Math.cos((centre.lat * Math.PI) / 180)) };
      const start = { lat: centre.lat + ((i % 7) - 3) * 0.0007, lon: centre.lon + ((i % 5) - 2) * 0.0013 };
      if (distanceMeters(start, other) <= 500) expect(cellAndNeighbours(start)).toContain(geohash(other));
    }
  });

  it('distance buckets follow the 50, 100, 200 m thresholds', () => {
    expect([10, 50, 51, 100, 150, 200, 201].map(distanceBucket)).toEqual(['~50m away', '~50m away', '~100m away', '~100m away', '~200m away', '~200m away', '~500m away']);
  });

  it.each([
    [1000, 52.52],
    [5000, 52.52],
    [1000, -33.9],
    [50_000, 59.9],
  ])('given a radius of %d m at latitude %d, then every point within it lies in a cell of the covering precision or a neighbour', (radius, lat) => {
    const centre = { lat, lon: 13.405 };
    const precision = coveringPrecision(centre, radius);
    const cells = cellAndNeighbours(centre, precision);
    for (let i = 0; i < 400; i += 1) {
      const angle = (i / 400) * 2 * Math.PI;
      const r = radius * 0.999;
      const other = { lat: centre.lat + (r * Math.cos(angle)) / 111_195, lon: centre.lon + (r * Math.sin(angle)) / (111_195 * Math.cos((centre.lat * Math.PI) / 180)) };
      if (distanceMeters(centre, other) <= radius) expect(cells).toContain(geohash(other, precision));
    }
  });

  it('given the contract radii, then the covering precision is as coarse as needed and no coarser', () => {
    const berlin = { lat: 52.52, lon: 13.405 };
    expect([300, 1000, 5000].map((radius) => coveringPrecision(berlin, radius))).toEqual([6, 5, 4]);
  });

  it('missed-connection distance labels: < 100m, < 500m, < 1km, then whole kilometres', () => {
    expect([0, 99, 100, 499, 500, 999, 1000, 1499, 1500, 4200].map(distanceLabel)).toEqual(['< 100m', '< 100m', '< 500m', '< 500m', '< 1km', '< 1km', '~1km', '~1km', '~2km', '~4km']);
  });
});
