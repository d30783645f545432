/**
 * A provider that sends two tool calls with the same id in one response,
 * through the REAL `@ai-sdk/openai` provider on a loopback server (both
 * APIs, both wrappers): each call is decided on its own, the denied one
 * never runs, and every call in the next request has exactly one result.
 */
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { createInterventions } from '../../src/index.ts';
import { replyText, replyToolCalls, toolCall } from '../helpers/openai-compatible-server.ts';
import { CASES, run, serve } from '../helpers/openai-wire.ts';
import { noWipes, wipeAndLookupTools } from '../helpers/recording-tools.ts';

const USER: ModelMessage = { role: 'user', content: 'Look it up' };

describe.each(CASES)('two calls with one id in a response: $api API, $mode', ({ api, mode, wire }) => {
  it('should never run the denied call, run the allowed one, and give each call one result', async () => {
    const { ran, tools } = wipeAndLookupTools();
    const { server, model } = await serve(
      api,
      replyToolCalls(toolCall('call_dup', 'wipe_disk', { disk: 'sda' }), toolCall('call_dup', 'lookup', { q: 'weather' })),
      replyText('Done.'),
    );
    const interventions = createInterventions({ handlers: [noWipes] });

    const result = await run(mode, interventions, { model, tools, messages: [USER] });

    expect(ran).toEqual(['lookup weather']);
    const calls = wire.toolCalls(server.requests[1]);
    const outputs = wire.toolOutputs(server.requests[1]);
    expect(calls.map((call) => call.name)).toEqual(['wipe_disk', 'lookup']);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    expect(outputs.map(([id]) => id)).toEqual(calls.map((call) => call.id));
    expect(outputs[0]?.[1]).toContain('Wiping disks is not allowed');
    expect(outputs[1]?.[1]).toContain('found weather');
    expect(result.decisions.filter((record) => record.handler === 'no-wipes').map((record) => [record.toolName, record.action])).toEqual([
      ['wipe_disk', 'deny'],
      ['lookup', 'proceed'],
    ]);
  });
});
