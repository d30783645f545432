/**
 * `actionDigestOf`: the digest a record carries as `actionDigest` is the
 * documented one (computed here independently), and changes with the tool,
 * the arguments, the action and each of its words.
 */
import { createHash } from 'node:crypto';
import { isStepCount } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  actionDigestOf,
  type BeforeToolCallEvent,
  createInterventions,
  type DecisionRecord,
  defineHandler,
  InterventionActions,
} from '../../src/index.ts';
import { wipeAndLookupTools } from '../helpers/recording-tools.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('actionDigestOf', () => {
  describe('when a record is made with actionDigests', () => {
    it("should be the record's actionDigest: the documented SHA-256, over the arguments as a transform committed them", async () => {
      const { tools, ran } = wipeAndLookupTools();
      const interventions = createInterventions({
        actionDigests: true,
        handlers: [
          defineHandler({
            name: 'narrow',
            beforeToolCall: () =>
              InterventionActions.transform<BeforeToolCallEvent>((draft) => {
                draft.toolCall.input = { q: 'weather in Paris' };
              }),
          }),
          defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Look it up?', 'A lookup') }),
        ],
      });
      const model = scriptedModel(step(toolCall('c1', 'lookup', { q: 'weather' })), step(text('ok')));
      const { interventions: report } = await interventions.generateText({ model, tools, prompt: 'go', stopWhen: isStepCount(3) });

      expect(ran).toEqual([]);
      const [narrowed, asked] = report.decisions as [DecisionRecord, DecisionRecord];
      // keys sorted, missing words null: ['ai-interventions-action-v1', lifecycle, toolName, input, action, reason, feedback, prompt, display]
      expect(asked.actionDigest).toBe(
        sha256(
          '["ai-interventions-action-v1","beforeToolCall","lookup",{"q":"weather in Paris"},"confirm",null,null,"Look it up?","A lookup"]',
        ),
      );
      expect(asked.actionDigest).toBe(await actionDigestOf(asked, { q: 'weather in Paris' }));
      expect(narrowed.actionDigest).toBe(await actionDigestOf(narrowed, { q: 'weather in Paris' }));
    });
  });

  describe('when any part of the action differs', () => {
    it('should give another digest', async () => {
      const record = { lifecycle: 'beforeToolCall', toolName: 'wipe_disk', action: 'deny', reason: 'No wipes' } as const;
      const input = { disk: 'prod', force: true };
      const digest = await actionDigestOf(record, input);
      expect(await actionDigestOf(record, { force: true, disk: 'prod' })).toBe(digest); // key order does not matter
      const others = await Promise.all([
        actionDigestOf(record, { disk: 'scratch', force: true }),
        actionDigestOf({ ...record, toolName: 'wipe_disks' }, input),
        actionDigestOf({ ...record, action: 'proceed' }, input),
        actionDigestOf({ ...record, reason: 'No wipes!' }, input),
        actionDigestOf({ ...record, display: 'Blocked' }, input),
        actionDigestOf({ ...record, lifecycle: 'afterToolCall' }, input),
        actionDigestOf(record, undefined),
      ]);
      expect(new Set([digest, ...others]).size).toBe(others.length + 1);
      expect(digest).toMatch(/^[0-9a-f]{64}$/);
    });
  });
});
