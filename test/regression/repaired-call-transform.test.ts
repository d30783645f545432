import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BeforeToolCallEvent, createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

// A beforeToolCall transform on a call the SDK repaired (repairToolCall) was
// recorded as enforced but not applied unless some tool hook was registered.
describe('a beforeToolCall transform on a call the SDK repaired', () => {
  for (const mode of MODES) {
    it(`should run the tool with the transformed input and show it in the history (${mode})`, async () => {
      const received: unknown[] = [];
      const tools = {
        search: tool({
          inputSchema: z.object({ query: z.string() }),
          execute: async (input) => (received.push(input), 'found'),
        }),
      };
      const model = scriptedModel(step(toolCall('c1', 'search', { q: 'cats' })), step(text('done')));
      const lowercase = defineHandler({
        name: 'lowercase',
        beforeToolCall: () =>
          InterventionActions.transform<BeforeToolCallEvent>((draft) => {
            const input = draft.toolCall.input as { query: string };
            input.query = `${input.query} (safe search)`;
          }),
      });
      const interventions = createInterventions({ handlers: [lowercase] });
      const outcome = await run(interventions, mode, {
        model,
        tools,
        stopWhen: isStepCount(3),
        prompt: 'find cats',
        repairToolCall: async ({ toolCall: call }) => ({
          ...call,
          input: JSON.stringify({ query: (JSON.parse(call.input) as { q: string }).q }),
        }),
      });

      expect(received).toEqual([{ query: 'cats (safe search)' }]);
      const record = outcome.decisions.find((decision) => decision.lifecycle === 'beforeToolCall');
      expect(record).toMatchObject({ handler: 'lowercase', action: 'transform', enforced: true, toolCallId: 'c1' });
      // the history the caller persists and the next request show what ran
      const calls = outcome.responseMessages.flatMap((message) =>
        Array.isArray(message.content) ? message.content.filter((part) => part.type === 'tool-call') : [],
      );
      expect(calls).toMatchObject([{ toolCallId: 'c1', input: { query: 'cats (safe search)' } }]);
      const sent = model.calls[1]?.prompt.find((message) => message.role === 'assistant');
      expect(sent?.content).toMatchObject([{ type: 'tool-call', toolCallId: 'c1', input: { query: 'cats (safe search)' } }]);
    });
  }
});
