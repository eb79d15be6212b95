import { throttleFor } from './pressure-gauge';

const config = { pressureSoft: 0.75, pressureHard: 0.95, throttleMaxDelayMs: 2000 };

describe('the throttle formula', () => {
  it('given every source at or below the soft threshold, then full speed and no pause', () => {
    expect(throttleFor({ ram: 0.5, cpu: 0.75, disk: 0.2, vram: null }, config)).toEqual({ pressure: 0.75, dominant: 'cpu', throttle_factor: 1, pause_ms: 0 });
  });

  it('given the fullest source between the thresholds, then the factor falls linearly and the pause grows', () => {
    expect(throttleFor({ ram: 0.85, cpu: 0.1 }, config)).toEqual({ pressure: 0.85, dominant: 'ram', throttle_factor: 0.5, pause_ms: 1000 });
  });

  it('given a source at or past the hard threshold, then throttle 0 and the whole pause', () => {
    expect(throttleFor({ ram: 0.1, vram: 0.99 }, config)).toEqual({ pressure: 0.99, dominant: 'vram', throttle_factor: 0, pause_ms: 2000 });
  });

  it('given nothing readable, then no pressure and nothing dominant', () => {
    expect(throttleFor({ ram: null, cpu: null }, config)).toEqual({ pressure: 0, dominant: null, throttle_factor: 1, pause_ms: 0 });
  });
});
