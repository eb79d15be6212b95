import { chooseEviction, type EvictionCandidate, evictionOrder } from './eviction-policy';

const model = (name: string, change: Partial<EvictionCandidate> = {}): EvictionCandidate => ({
  model: name,
  tool: name,
  loaded: true,
  priority: 'warm',
  placement: 'gpu',
  vram_mb: 1000,
  ...change,
});

describe('the eviction policy', () => {
  it('given pressure at or below the threshold, or no GPU reading, then nothing is evicted', () => {
    expect(chooseEviction([model('a')], 0.9, 0.9)).toBeNull();
    expect(chooseEviction([model('a')], null, 0.9)).toBeNull();
  });

  it('given pressure past the threshold, then the lowest priority goes first, then the largest', () => {
    const models = [model('hot', { priority: 'hot' }), model('small-cold', { priority: 'cold', vram_mb: 100 }), model('big-cold', { priority: 'cold', vram_mb: 5000 }), model('ev', { priority: 'evictable', vram_mb: 1 })];
    expect(evictionOrder(models).map((m) => m.model)).toEqual(['ev', 'big-cold', 'small-cold', 'hot']);
    expect(chooseEviction(models, 0.95, 0.9)?.model).toBe('ev');
  });

  it('never picks a pinned model, one that is not loaded, one on the CPU or one that holds no VRAM', () => {
    const models = [model('p', { priority: 'pinned' }), model('off', { loaded: false }), model('cpu', { placement: 'cpu' }), model('tts', { vram_mb: 0 })];
    expect(chooseEviction(models, 1, 0.5)).toBeNull();
  });
});
