/**
 * The tool set a run guards (`guardToolSet`, read through
 * `interventions.generateText`): a tool named after an `Object.prototype`
 * member stays a tool of the set, also where `Object.prototype` is frozen.
 */
import { describe, expect, it } from 'vitest';
import { spawnChild } from '../helpers/child-process.ts';
import type { FrozenChildCommand, FrozenChildMessage } from './frozen-prototype-child.ts';

describe('a guarded tool set', () => {
  it('keeps tools named toString and constructor where Object.prototype is frozen, as the raw SDK does', async () => {
    const child = spawnChild<FrozenChildMessage, FrozenChildCommand>(new URL('./frozen-prototype-child.ts', import.meta.url));
    try {
      child.send({ type: 'run' });
      const outcome = await child.receive('ran');
      expect(outcome).toEqual({ type: 'ran', raw: ['toString', 'constructor'], ours: ['toString', 'constructor'], afterToolCall: 2 });
    } finally {
      await child.close();
    }
  });
});
