/**
 * `approvalSecret` is checked when the runtime is created: an empty or
 * short secret (an unset environment variable) is an `InvalidOptionError`
 * naming `approvalSecret`, never a "Zero-length key is not supported" in
 * the middle of the first approval's stream.
 */
import { isStepCount } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInterventions, InterventionsError, InvalidOptionError } from '../../src/index.ts';
import { noWipes, wipeAndLookupTools } from '../helpers/recording-tools.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** What `createInterventions` throws for `approvalSecret`, or `undefined`. */
function creating(approvalSecret: unknown): unknown {
  try {
    createInterventions({ handlers: [noWipes], approvalSecret: approvalSecret as string });
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('approvalSecret', () => {
  describe('when it is empty or short', () => {
    it('should be an InvalidOptionError at createInterventions that names approvalSecret and says how long it was, not what', () => {
      vi.stubEnv('APPROVAL_SECRET', '');
      const unset = creating(process.env.APPROVAL_SECRET);
      expect(InvalidOptionError.isInstance(unset)).toBe(true);
      expect(InterventionsError.isInstance(unset)).toBe(true);
      expect(unset).toMatchObject({
        name: 'AIInterventions_InvalidOptionError',
        code: 'invalid-option',
        owner: 'createInterventions',
        option: 'approvalSecret',
      });
      expect((unset as Error).message).toBe(
        'createInterventions: approvalSecret is empty (an environment variable that is not set?): an approval secret must be a string or bytes of at least 32 bytes ' +
          '(e.g. `openssl rand -base64 32`), the same on every instance; leave approvalSecret out for a random one per runtime.',
      );

      const short = creating('hunter2-but-longer');
      expect(short).toMatchObject({ code: 'invalid-option', option: 'approvalSecret' });
      expect((short as Error).message).toContain('approvalSecret is 18 bytes long');
      expect((short as Error).message).not.toContain('hunter2');
      // bytes, not characters: 16 two-byte characters are 32 bytes
      expect(creating('é'.repeat(16))).toBeUndefined();
      expect(creating('é'.repeat(15))).toMatchObject({ message: expect.stringContaining('is 30 bytes long') });
      expect(creating(new Uint8Array(31))).toMatchObject({ message: expect.stringContaining('is 31 bytes long') });
      expect(creating(new Uint8Array(0))).toMatchObject({ message: expect.stringContaining('approvalSecret is empty:') });
    });

    it('should refuse what is not a string or bytes', () => {
      expect(creating(null)).toMatchObject({ option: 'approvalSecret', message: expect.stringContaining('approvalSecret is null') });
      expect(creating(42)).toMatchObject({ message: expect.stringContaining('approvalSecret is a number') });
    });
  });

  describe('when it has 32 bytes or more', () => {
    it('should sign and verify approvals with it', async () => {
      expect(creating('x'.repeat(32))).toBeUndefined();
      expect(creating(crypto.getRandomValues(new Uint8Array(32)))).toBeUndefined();
      const { tools, ran } = wipeAndLookupTools();
      const interventions = createInterventions({ handlers: [noWipes], approvalSecret: 'y'.repeat(32) });
      const model = scriptedModel(step(toolCall('c1', 'wipe_disk', { disk: 'scratch' })), step(text('wiped')));
      const first = await interventions.generateText({ model, tools, prompt: 'wipe', stopWhen: isStepCount(3) });
      const request = first.content.find((part) => part.type === 'tool-approval-request');
      if (request?.type !== 'tool-approval-request') throw new Error('no approval request');
      await interventions.generateText({
        model,
        tools,
        stopWhen: isStepCount(3),
        messages: [
          { role: 'user', content: 'wipe' },
          ...first.responseMessages,
          { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
        ],
      });
      expect(ran).toEqual(['wipe_disk scratch']);
    });
  });
});
