import { describe, expect, it } from 'vitest';
import { onDemand } from '../../src/util/on-demand.ts';

describe('onDemand', () => {
  describe('when it is called before and after the module loaded', () => {
    it('should load once, give the load under way, then the module itself synchronously', async () => {
      let loads = 0;
      const module = { name: 'held-step' };
      const load = onDemand(async () => {
        loads++;
        return module;
      });
      const first = load();
      const second = load();
      expect(first).toBeInstanceOf(Promise);
      expect(second).toBe(first);
      expect(await first).toBe(module);
      expect(load()).toBe(module);
      expect(loads).toBe(1);
    });
  });

  describe('when the load fails', () => {
    it('should reject, then load again at the next call', async () => {
      let loads = 0;
      const load = onDemand(async () => {
        loads++;
        if (loads === 1) throw new Error('no chunk');
        return { loaded: true };
      });
      await expect(load()).rejects.toThrow('no chunk');
      expect(await load()).toEqual({ loaded: true });
      expect(loads).toBe(2);
    });
  });
});
