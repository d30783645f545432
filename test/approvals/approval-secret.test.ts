/**
 * `approvalSecret` is checked when the runtime is created: an empty or
 * short secret (an unset environment variable) is an `InvalidOptionError`
 * naming `approvalSecret`, never a "Zero-length key is not supported" in
 * the middle of the first approval's stream.
 */
import { isStepCount, type ModelMessage } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  approvalAnswer,
  createApprovalLedger,
  createInterventions,
  defineHandler,
  InterventionActions,
  type Interventions,
  InterventionsError,
  InvalidOptionError,
} from '../../src/index.ts';
import { noWipes, wipeAndLookupTools } from '../helpers/recording-tools.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** What `createInterventions` throws for `approvalSecret`, or `undefined`. */
function creating(approvalSecret: unknown): unknown {
  try {
    createInterventions({ handlers: [noWipes], approvalSecret: approvalSecret as string, approvalLedger: createApprovalLedger() });
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
      const interventions = createInterventions({
        handlers: [noWipes],
        approvalSecret: 'y'.repeat(32),
        approvalLedger: createApprovalLedger(),
      });
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

  describe('when it is a list of keys (rotation)', () => {
    const [K1, K2, K3] = [
      'first-key-with-at-least-32-bytes-for-hmac',
      'second-key-with-at-least-32-bytes-for-hmac',
      'third-key-with-at-least-32-bytes-for-hmac',
    ];

    /** A runtime asking before wiping the scratch disk, with `approvalSecret`, and what ran through it. */
    function runtime(approvalSecret: string | readonly (string | undefined)[], handler = noWipes) {
      const { tools, ran } = wipeAndLookupTools();
      return {
        interventions: createInterventions({ handlers: [handler], approvalSecret, approvalLedger: createApprovalLedger() }),
        tools,
        ran,
      };
    }
    /** Asks before every wipe (an edit to another disk is asked about too, and answered by the edit's approval). */
    const askWipes = defineHandler({ name: 'ask-wipes', beforeToolCall: () => InterventionActions.confirm('Wipe?') });

    /** The approval request a runtime's wipe asked for, and the history answering it (`answer`: the tool message's part). */
    async function asked({
      interventions,
      tools,
    }: {
      interventions: Interventions;
      tools: ReturnType<typeof wipeAndLookupTools>['tools'];
    }) {
      const model = scriptedModel(step(toolCall('c1', 'wipe_disk', { disk: 'scratch' })));
      const first = await interventions.generateText({ model, tools, prompt: 'wipe', stopWhen: isStepCount(3) });
      const request = first.content.find((part) => part.type === 'tool-approval-request');
      if (request?.type !== 'tool-approval-request') throw new Error('no approval request');
      const answered = (
        answer: { approved: boolean; reason?: string } = { approved: true },
        responseMessages: readonly ModelMessage[] = first.responseMessages,
      ): ModelMessage[] => [
        { role: 'user', content: 'wipe' },
        ...responseMessages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, ...answer }] },
      ];
      return { request, answered, responseMessages: first.responseMessages };
    }

    const resume = (instance: ReturnType<typeof runtime>, mode: (typeof MODES)[number], messages: ModelMessage[]) => {
      const model = scriptedModel(step(text('done')));
      return run(instance.interventions, mode, { model, tools: instance.tools, stopWhen: isStepCount(3), messages }).then((outcome) => ({
        ...outcome,
        model,
      }));
    };

    it.each(MODES)('should run an approval signed with a previous key, once, and sign new ones with the current key (%s)', async (mode) => {
      const before = runtime(K1);
      const { answered } = await asked(before);
      const rotated = runtime([K2, K1]);

      const outcome = await resume(rotated, mode, answered());

      expect(rotated.ran).toEqual(['wipe_disk scratch']);
      expect(toolResultsSent(outcome.model, 0).c1).toEqual({ type: 'text', value: 'wiped scratch' });
      expect(outcome.decisions.filter((record) => record.handler === 'approval-verification')).toEqual([]);

      // a new approval of the rotated runtime is signed with K2: an instance with K2 alone runs it, one with K1 alone refuses it
      const fresh = await asked(rotated);
      const onlyCurrent = runtime(K2);
      await resume(onlyCurrent, mode, fresh.answered());
      expect(onlyCurrent.ran).toEqual(['wipe_disk scratch']);
      const onlyPrevious = runtime(K1);
      const refused = await resume(onlyPrevious, mode, fresh.answered());
      expect(onlyPrevious.ran).toEqual([]);
      expect(refused.decisions.map((record) => record.handler)).toContain('approval-verification');
    });

    it.each(MODES)(
      "should never sign again a forged approval: signed with another key, or a previous key's signature altered (%s)",
      async (mode) => {
        const rotated = runtime([K2, K1]);
        const elsewhere = await asked(runtime(K3));
        const underK1 = await asked(runtime(K1));
        // the K1 signature altered: a forgery, even under a key the runtime still verifies with
        const changed = structuredClone(underK1.responseMessages) as ModelMessage[];
        for (const message of changed) {
          if (message.role !== 'assistant' || typeof message.content === 'string') continue;
          for (const part of message.content) {
            if (part.type === 'tool-approval-request' && part.signature !== undefined)
              part.signature = [...part.signature].reverse().join('');
          }
        }
        for (const messages of [underK1.answered({ approved: true }, changed), elsewhere.answered()]) {
          const outcome = await resume(rotated, mode, messages);
          expect(rotated.ran).toEqual([]);
          expect(outcome.decisions.filter((record) => record.handler === 'approval-verification')).toMatchObject([
            { action: 'deny', enforced: true, toolCallId: 'c1' },
          ]);
          expect(toolResultsSent(outcome.model, 0).c1).toMatchObject({ type: 'execution-denied' });
        }
      },
    );

    it.each(MODES)("should run a person's edit of an approval signed with a previous key, with the edited arguments (%s)", async (mode) => {
      const { request, answered } = await asked(runtime(K1, askWipes));
      const rotated = runtime([K2, undefined, K1], askWipes);
      const { reason } = approvalAnswer({ id: request.approvalId, approved: true, input: { disk: 'scratch-2' } });

      await resume(rotated, mode, answered({ approved: true, ...(reason === undefined ? {} : { reason }) }));

      expect(rotated.ran).toEqual(['wipe_disk scratch-2']);
    });

    it('should check every key by its entry, and leave out previous keys that are not set', () => {
      expect(creating([])).toMatchObject({ option: 'approvalSecret', message: expect.stringContaining('approvalSecret is an empty list') });
      expect(creating(['short', K1])).toMatchObject({
        option: 'approvalSecret[0]',
        message: expect.stringContaining('approvalSecret[0] is 5 bytes long'),
      });
      expect(creating([K1, ''])).toMatchObject({
        option: 'approvalSecret[1]',
        message: expect.stringContaining('approvalSecret[1] is empty'),
      });
      expect(creating([undefined, K1])).toMatchObject({
        option: 'approvalSecret[0]',
        message: expect.stringContaining('approvalSecret[0] is not set'),
      });
      expect(creating([K1, undefined, 'short'])).toMatchObject({ option: 'approvalSecret[2]' });
      expect(creating([K1, undefined])).toBeUndefined();
      expect(creating([K1, new Uint8Array(32)])).toBeUndefined();
    });
  });
});
