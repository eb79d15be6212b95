import { chooseRegion } from './region-choice';

const region = (region_id: string, local_count: number, geo_info: Record<string, unknown> = {}) => ({ region_id, local_count, geo_info });

describe('choosing a region', () => {
  it('given no region, then none', () => expect(chooseRegion({}, [])).toBeNull());

  it('given positions, then the nearest region', () =>
    expect(chooseRegion({ lat: 48.1, lon: 11.6 }, [region('paris', 0, { lat: 48.9, lon: 2.3 }), region('vienna', 9, { lat: 48.2, lon: 16.4 })])).toBe('vienna'));

  it('given no position, then the region with the fewest local nodes, ties to the lower id', () => {
    expect(chooseRegion({}, [region('b', 2), region('a', 3), region('c', 1)])).toBe('c');
    expect(chooseRegion({}, [region('b', 1), region('a', 1)])).toBe('a');
  });
});
