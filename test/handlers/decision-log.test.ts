import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, type DecisionRecord, defineHandler, InterventionActions } from '../../src/index.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

/** Handlers whose records take every shape: plain proceeds (built when read), a shadow one, a proceed with a reason, a deny. */
function handlers() {
  return [
    defineHandler({
      name: 'audit',
      beforeModelCall: () => InterventionActions.proceed(),
      afterModelCall: () => InterventionActions.proceed(),
      beforeToolCall: () => InterventionActions.proceed(),
      afterToolCall: () => InterventionActions.proceed(),
    }),
    defineHandler({ name: 'dry-run', mode: 'shadow', beforeToolCall: () => InterventionActions.proceed() }),
    defineHandler({
      name: 'guard',
      toolCallActions: ['deny'],
      beforeToolCall: ({ toolCall }) =>
        toolCall.toolCallId === 'c2' ? InterventionActions.deny('not this one') : InterventionActions.proceed('checked'),
    }),
    defineHandler({ name: 'async-audit', beforeToolCall: async () => InterventionActions.proceed() }),
  ];
}

const tools = { echo: tool({ inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text }) };
const script = () =>
  scriptedModel(step(toolCall('c1', 'echo', { text: 'a' })), step(toolCall('c2', 'echo', { text: 'b' })), step(text('done')));

const timeless = (records: readonly DecisionRecord[]) => records.map((record) => ({ ...record, durationMs: 0 }));

describe('result.interventions.decisions', () => {
  for (const api of ['generateText', 'streamText'] as const) {
    describe(`when nobody is told of the records as they are made (${api})`, () => {
      /** One run: its records as the result gives them, and as `onDecision` received them when `told`. */
      async function run(told: boolean, model = script(), steps = 3) {
        const received: DecisionRecord[] = [];
        const interventions = createInterventions({
          handlers: handlers(),
          policyVersion: 'v7',
          ...(told ? { hooks: { onDecision: ({ record }: { record: DecisionRecord }) => void received.push(record) } } : {}),
        });
        const options = { model, tools, stopWhen: isStepCount(steps), prompt: 'Echo.' };
        if (api === 'generateText') {
          const result = await interventions.generateText(options);
          return { decisions: result.interventions.decisions, received, report: result.interventions };
        }
        const result = interventions.streamText(options);
        await result.consumeStream();
        return { decisions: result.interventions.decisions, received, report: result.interventions };
      }

      it('should give the same records, in the same order, as the run that reports each as it is made', async () => {
        const [quiet, reported] = [await run(false), await run(true)];
        expect(timeless(quiet.decisions)).toEqual(timeless(reported.decisions));
        expect(timeless(reported.decisions)).toEqual(timeless(reported.received));
        expect(
          quiet.decisions.map(({ handler, lifecycle, action, toolCallId }) => `${handler} ${lifecycle} ${action} ${toolCallId ?? ''}`),
        ).toEqual([
          'audit beforeModelCall proceed ',
          'audit afterModelCall proceed ',
          'audit beforeToolCall proceed c1',
          'dry-run beforeToolCall proceed c1',
          'guard beforeToolCall proceed c1',
          'async-audit beforeToolCall proceed c1',
          'audit afterToolCall proceed c1',
          'audit beforeModelCall proceed ',
          'audit afterModelCall proceed ',
          'audit beforeToolCall proceed c2',
          'dry-run beforeToolCall proceed c2',
          'guard beforeToolCall deny c2',
          'audit beforeModelCall proceed ',
          'audit afterModelCall proceed ',
        ]);
        expect(quiet.decisions.find((record) => record.handler === 'dry-run')).toEqual(
          expect.objectContaining({ enforced: false, mode: 'shadow', policyVersion: 'v7', stepNumber: 0, toolName: 'echo' }),
        );
        expect(quiet.decisions.find((record) => record.handler === 'guard')).toEqual(expect.objectContaining({ reason: 'checked' }));
        expect(quiet.decisions.every((record) => record.policyVersion === 'v7')).toBe(true);
      });

      it('should give the same records over a long run, with records made as they come between the plain proceeds', async () => {
        // 40 steps: 39 calls (every fourth denied) and the last step's text, far more entries than the log's first chunks hold
        const long = () =>
          scriptedModel(
            ...Array.from({ length: 39 }, (_, index) =>
              step(toolCall(index % 4 === 1 ? 'c2' : `c${index + 3}`, 'echo', { text: `${index}` })),
            ),
            step(text('done')),
          );
        const [quiet, reported] = [await run(false, long(), 40), await run(true, long(), 40)];
        expect(quiet.decisions.length).toBeGreaterThan(200);
        expect(timeless(quiet.decisions)).toEqual(timeless(reported.decisions));
        expect(quiet.decisions.filter((record) => record.action === 'deny')).toHaveLength(10);
      });

      it('should give one array, the same at every read', async () => {
        const { report } = await run(false);
        expect(report.decisions).toBe(report.decisions);
        expect(report.decisions).toHaveLength(14);
      });
    });
  }

  describe('a run with thousands of records', () => {
    it('should keep every one, in order, however many chunks they fill', async () => {
      // 40 handlers before and after each of 39 calls: 3,120 plain proceeds, far more than the log's first chunks hold
      const many = Array.from({ length: 40 }, (_, index) =>
        defineHandler({
          name: `audit-${index}`,
          toolCallActions: [],
          beforeToolCall: () => InterventionActions.proceed(),
          afterToolCall: () => InterventionActions.proceed(),
        }),
      );
      const interventions = createInterventions({ handlers: many });
      const model = scriptedModel(
        ...Array.from({ length: 39 }, (_, index) => step(toolCall(`c${index}`, 'echo', { text: `${index}` }))),
        step(text('done')),
      );

      const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(40), prompt: 'Echo.' });

      const expected = Array.from({ length: 39 }, (_, call) =>
        (['beforeToolCall', 'afterToolCall'] as const).flatMap((lifecycle) =>
          many.map((_, index) => `audit-${index} ${lifecycle} c${call}`),
        ),
      ).flat();
      expect(result.interventions.decisions.map(({ handler, lifecycle, toolCallId }) => `${handler} ${lifecycle} ${toolCallId}`)).toEqual(
        expected,
      );
    });
  });

  describe('what a run keeps of a plain proceed until its records are read', () => {
    it("should keep none of the event: a step's event is collected once the step is over, while the run goes on", async () => {
      // a garbage collection on demand, in this worker
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      let first: WeakRef<object> | undefined;
      let collected: boolean | undefined;
      const observer = defineHandler({
        name: 'observer',
        beforeModelCall: (event) => {
          if (event.stepNumber === 0) first = new WeakRef(event);
          if (event.stepNumber !== 2) return InterventionActions.proceed();
          // a WeakRef holds its target until the job that made it ends: the check waits for a timer
          return new Promise((resolve) => setTimeout(resolve, 0)).then(() => {
            gc();
            collected = first?.deref() === undefined;
            return InterventionActions.proceed();
          });
        },
      });
      const interventions = createInterventions({ handlers: [observer] });

      const result = await interventions.generateText({ model: script(), tools, stopWhen: isStepCount(3), prompt: 'Echo.' });

      expect(collected).toBe(true);
      expect(result.interventions.decisions.map(({ handler, stepNumber }) => `${handler} ${stepNumber}`)).toEqual([
        'observer 0',
        'observer 1',
        'observer 2',
      ]);
    });
  });
});
