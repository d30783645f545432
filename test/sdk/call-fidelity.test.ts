import { generateText, isStepCount, type ModelMessage, NoSuchToolError, type StepResult, type ToolSet, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';
import { normalize, observeGenerate } from '../helpers/differential.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

/** A tool written as a class: its methods live on the prototype. */
class ForecastTool {
  readonly description = 'The forecast for a city';
  readonly inputSchema = z.object({ city: z.string() });
  constructor() {
    Object.defineProperty(this, 'metadata', { value: { owner: 'weather-team' }, enumerable: false });
  }
  async execute({ city }: { city: string }) {
    return { city, celsius: 21 };
  }
  toModelOutput({ output }: { output: { city: string; celsius: number } }) {
    return { type: 'text' as const, value: `${output.city}: ${output.celsius} °C` };
  }
}

describe('wrapped tools', () => {
  for (const mode of MODES) {
    it(`should keep a class tool's methods and non-enumerable properties (${mode})`, async () => {
      const model = scriptedModel(step(toolCall('c1', 'forecast', { city: 'Oslo' })), step(text('Mild.')));
      const interventions = createInterventions({ hooks: { preToolCall: () => undefined } });
      const outcome = await run(interventions, mode, {
        model,
        tools: { forecast: new ForecastTool() as unknown as ToolSet[string] },
        stopWhen: isStepCount(2),
        prompt: 'weather?',
      });
      // toModelOutput is a prototype method: a spread copy would have lost it
      expect(toolResultsSent(model, 1)).toEqual({ c1: { type: 'text', value: 'Oslo: 21 °C' } });
      const calls = outcome.steps[0]?.toolCalls ?? [];
      expect(calls[0]).toMatchObject({ toolCallId: 'c1', toolMetadata: { owner: 'weather-team' } });
    });

    it(`should give a tool exactly the execution options the SDK gives it (${mode})`, async () => {
      const seen: unknown[] = [];
      const probe = tool({
        inputSchema: z.object({}),
        execute: async (_input, options) => (
          seen.push({ signal: options.abortSignal !== undefined, keys: Object.keys(options).sort() }), 'ok'
        ),
      });
      const model = scriptedModel(step(toolCall('c1', 'probe', {})), step(text('done')));
      const interventions = createInterventions({
        handlers: [
          defineHandler({
            name: 'noop',
            beforeToolCall: () => InterventionActions.proceed(),
            afterToolCall: () => InterventionActions.proceed(),
          }),
        ],
        hooks: { preToolCall: () => undefined, onToolCallResult: () => undefined },
      });
      await run(interventions, mode, { model, tools: { probe }, stopWhen: isStepCount(2), prompt: 'go' });
      const rawSeen = seen.splice(0);
      await generateText({
        model: scriptedModel(step(toolCall('c1', 'probe', {})), step(text('done'))),
        tools: { probe },
        stopWhen: isStepCount(2),
        prompt: 'go',
      });
      expect(seen).toEqual(rawSeen);
      expect(rawSeen).toMatchObject([{ signal: false }]);
    });
  }
});

describe("the caller's stopWhen", () => {
  for (const mode of MODES) {
    it(`should be asked once per step, also when drain hooks run (${mode})`, async () => {
      const asked: number[] = [];
      const model = scriptedModel(step(toolCall('c1', 'echo', {})), step(toolCall('c2', 'echo', {})), step(text('done')));
      const interventions = createInterventions({ hooks: { drainSteering: () => undefined, drainFollowUp: () => undefined } });
      await run(interventions, mode, {
        model,
        tools: { echo: tool({ inputSchema: z.object({}), execute: async () => 'ok' }) },
        stopWhen: ({ steps }: { steps: StepResult<ToolSet>[] }) => (asked.push(steps.length), steps.length >= 5),
        prompt: 'go',
      });
      // once per step: the drains ask it at the final step too (a follow-up could continue the run), never twice
      expect(asked).toEqual([1, 2, 3]);
    });
  }
});

describe('an onToolCallError rewrite of a call the SDK rejected', () => {
  for (const mode of MODES) {
    it(`should read the same in the next request, the steps and the response messages (${mode})`, async () => {
      const model = scriptedModel(step(toolCall('c1', 'format_disk', {})), step(text('Sorry.')));
      const interventions = createInterventions({
        hooks: {
          onToolCallError: ({ error }) =>
            NoSuchToolError.isInstance(error) ? { error: new Error('That tool does not exist here; use search.') } : undefined,
        },
      });
      const outcome = await run(interventions, mode, {
        model,
        tools: { search: tool({ inputSchema: z.object({}), execute: async () => 'ok' }) },
        stopWhen: isStepCount(2),
        prompt: 'go',
      });
      const replacement = { type: 'error-text', value: 'Error: That tool does not exist here; use search.' };
      expect(toolResultsSent(model, 1)).toEqual({ c1: replacement });
      const persisted = outcome.responseMessages.find((message: ModelMessage) => message.role === 'tool');
      expect(persisted?.content).toMatchObject([{ type: 'tool-result', toolCallId: 'c1', output: replacement }]);
      const stepError = outcome.steps[0]?.content.find((part) => part.type === 'tool-error');
      expect(String((stepError as { error: unknown }).error)).toBe(replacement.value);
    });
  }
});

describe('a resume with nothing registered', () => {
  it("should be the SDK's own resume: its refusal wording, providerOptions and replays untouched", async () => {
    let runs = 0;
    const tools = {
      deploy: tool({ inputSchema: z.object({}), needsApproval: true, execute: async () => (runs++, 'deployed') }),
      wipe: tool({ inputSchema: z.object({}), needsApproval: true, execute: async () => 'wiped' }),
    };
    const history: ModelMessage[] = [
      { role: 'user', content: 'deploy and wipe' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'deploy', input: {} },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'wipe', input: {} },
          { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
          { type: 'tool-approval-request', approvalId: 'a2', toolCallId: 'c2' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-approval-response', approvalId: 'a1', approved: true, reason: 'go ahead' },
          { type: 'tool-approval-response', approvalId: 'a2', approved: false, reason: 'not today' },
        ],
      },
    ];
    const resume = (generate: typeof generateText) => {
      const model = scriptedModel(step(text('Done.')));
      return observeGenerate(generate, { model, tools, messages: history }).then((observed) => ({
        observed,
        sent: normalize(model.calls.map((call) => call.prompt)),
      }));
    };
    const raw = await resume(generateText);
    const interventions = createInterventions();
    const wrapped = await resume(interventions.generateText as typeof generateText);
    // a regenerate from the same history runs as the SDK runs it
    const again = await resume(interventions.generateText as typeof generateText);
    expect(wrapped).toEqual(raw);
    expect(again.sent).toEqual(raw.sent);
    expect(runs).toBe(3);
  });
});
