/**
 * Tool arguments the AI SDK rejects as invalid JSON (a leading no-break
 * space, byte-order mark, ideographic space or line separator: whitespace
 * `trim()` removes but JSON does not allow) never reach the gates, the
 * handlers or the tool hooks, and the tool never runs: the model reads the
 * SDK's own error, exactly as without the runtime. Through both wrappers on
 * a scripted model, through tools guarded without a run, and through the
 * REAL `@ai-sdk/openai` provider on a loopback server (both APIs).
 */
import { generateText, isStepCount, type LanguageModel, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, guardTools, InterventionActions, type InterventionsOptions } from '../../src/index.ts';
import { replyText, replyToolCalls, toolCall as wireToolCall } from '../helpers/openai-compatible-server.ts';
import { CASES, run as runOnWire, serve } from '../helpers/openai-wire.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const PREFIXES = [
  ['a no-break space', '\u00A0'],
  ['a byte-order mark', '\uFEFF'],
  ['an ideographic space', '\u3000'],
  ['a line separator', '\u2028'],
] as const;

/** Every place a call could leak to, recorded; a tool that records its runs. */
function watched({ repair = false }: { repair?: boolean } = {}) {
  const seen: string[] = [];
  const ran: unknown[] = [];
  const options: InterventionsOptions = {
    handlers: [
      defineHandler({
        name: 'watcher',
        beforeToolCall: ({ toolCall: call }) => (seen.push(`handler ${JSON.stringify(call.input)}`), InterventionActions.proceed()),
        afterToolCall: () => (seen.push('afterToolCall'), InterventionActions.proceed()),
      }),
    ],
    hooks: {
      gateToolCalls: ({ calls }) => (seen.push(`gate ${calls.length}`), calls.map(() => InterventionActions.proceed())),
      preToolCall: () => void seen.push('preToolCall'),
      onToolCallResult: () => void seen.push('onToolCallResult'),
      ...(repair ? { onToolCallError: () => void seen.push('onToolCallError') } : {}),
    },
  };
  const tools = {
    delete_file: tool({ inputSchema: z.object({ path: z.string() }), execute: async (input) => (ran.push(input), 'deleted') }),
  };
  return { seen, ran, options, tools };
}

/** The error text the raw SDK gives the model for these arguments. */
async function rawErrorText(args: string): Promise<unknown> {
  const { tools } = watched();
  const model = scriptedModel(step(toolCall('c1', 'delete_file', args)), step(text('ok')));
  await generateText({ model, tools, stopWhen: isStepCount(3), prompt: 'go' });
  return toolResultsSent(model, 1).c1;
}

describe.each(MODES)('malformed tool arguments (%s)', (mode) => {
  it.each(PREFIXES)(
    "should keep arguments after %s from the gates, handlers and hooks; the model reads the SDK's own error",
    async (_, prefix) => {
      const args = `${prefix}{"path":"/tmp/x"}`;
      for (const repair of [false, true]) {
        const { seen, ran, options, tools } = watched({ repair });
        const model = scriptedModel(step(toolCall('c1', 'delete_file', args)), step(text('I could not call it.')));

        const outcome = await run(createInterventions(options), mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

        expect(outcome.text).toBe('I could not call it.');
        expect(ran).toEqual([]);
        // only the error hook hears of it (the SDK's InvalidToolInputError), when one is registered
        expect(seen).toEqual(repair ? ['onToolCallError'] : []);
        expect(outcome.decisions).toEqual([]);
        expect(toolResultsSent(model, 1).c1).toEqual(await rawErrorText(args));
        expect(JSON.stringify(toolResultsSent(model, 1).c1)).toContain('Invalid input for tool delete_file');
      }
    },
  );

  it('should let a well-formed call of the same turn through as usual', async () => {
    const { seen, ran, options, tools } = watched();
    const model = scriptedModel(
      step(toolCall('c1', 'delete_file', '\u00A0{"path":"/tmp/x"}'), toolCall('c2', 'delete_file', '{"path":"/tmp/y"}')),
      step(text('done')),
    );
    await run(createInterventions(options), mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });
    expect(ran).toEqual([{ path: '/tmp/y' }]);
    expect(seen).toEqual(['gate 1', 'handler {"path":"/tmp/y"}', 'preToolCall', 'onToolCallResult', 'afterToolCall']);
  });

  it('should keep them from the handlers of tools guarded without a run (guardTools)', async () => {
    const { seen, ran, options, tools } = watched();
    const guarded = guardTools(tools, options);
    const model = scriptedModel(step(toolCall('c1', 'delete_file', '\uFEFF{"path":"/tmp/x"}')), step(text('ok')));
    const call = { model, tools: guarded, stopWhen: isStepCount(3), prompt: 'go' };
    if (mode === 'generateText') await generateText(call);
    else await streamText(call).consumeStream();
    expect(ran).toEqual([]);
    expect(seen).toEqual([]);
    expect(JSON.stringify(toolResultsSent(model, 1).c1)).toContain('Invalid input for tool delete_file');
  });
});

describe.each(CASES)('malformed tool arguments through the real provider: $api API, $mode', ({ api, mode, wire }) => {
  it.each(PREFIXES)("should keep arguments after %s from the gates and handlers; the model reads the SDK's error", async (_, prefix) => {
    const { seen, ran, options, tools } = watched();
    const { server, model } = await serve(
      api,
      replyToolCalls(wireToolCall('call_0', 'delete_file', `${prefix}{"path":"/tmp/x"}`)),
      replyText('I could not call it.'),
    );

    const result = await runOnWire(mode, createInterventions(options), {
      model: model as LanguageModel,
      tools,
      messages: [{ role: 'user', content: 'go' }],
    });

    expect(result.text).toBe('I could not call it.');
    expect(ran).toEqual([]);
    expect(seen).toEqual([]);
    const [[id, output] = []] = wire.toolOutputs(server.requests[1]);
    expect(id).toBe('call_0');
    expect(output).toContain('Invalid input for tool delete_file');
  });
});
