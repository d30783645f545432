/**
 * Every tool call has an identity of the library's own: two calls with one
 * id in a model response are decided, and enforced, each on its own,
 * through both wrappers and through `wrapTools` with plain SDK calls.
 */
import { generateText, isStepCount, type ModelMessage, streamText, ToolLoopAgent } from 'ai';
import { describe, expect, it } from 'vitest';
import { createApprovalLedger, createInterventions, type DecisionRecord, defineHandler, InterventionActions } from '../../src/index.ts';
import { approvalRequests } from '../helpers/approval-requests.ts';
import { noWipes, wipeAndLookupTools } from '../helpers/recording-tools.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

/** Every tool call of a prompt with its results' texts, in order. */
function callsAndResults(prompt: readonly ModelMessage[] | undefined) {
  const calls: Array<{ id: string; tool: string; results: string[] }> = [];
  for (const message of prompt ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.push({ id: part.toolCallId, tool: part.toolName, results: [] });
      if (part.type === 'tool-result') {
        for (const call of calls) if (call.id === part.toolCallId) call.results.push(JSON.stringify(part.output));
      }
    }
  }
  return calls;
}

type Mode = 'generateText' | 'streamText';

async function runWrapped(mode: Mode, interventions: ReturnType<typeof createInterventions>, options: Parameters<typeof generateText>[0]) {
  if (mode === 'generateText') {
    const result = await interventions.generateText(options);
    return { content: result.content, decisions: result.interventions.decisions };
  }
  const result = interventions.streamText(options as Parameters<typeof streamText>[0]);
  await result.consumeStream();
  return { content: await result.content, decisions: result.interventions.decisions };
}

describe.each(['generateText', 'streamText'] as const)('two calls with one id in a response (%s)', (mode) => {
  it('should run the allowed call, never the denied one, and give each call one result', async () => {
    const { ran, tools } = wipeAndLookupTools();
    const model = scriptedModel(
      step(toolCall('call_dup', 'wipe_disk', { disk: 'sda' }), toolCall('call_dup', 'lookup', { q: 'weather' })),
      step(text('Done.')),
    );
    const interventions = createInterventions({ handlers: [noWipes] });

    const { decisions } = await runWrapped(mode, interventions, { model, tools, prompt: 'go', stopWhen: isStepCount(3) });

    expect(ran).toEqual(['lookup weather']);
    const calls = callsAndResults(model.calls[1]?.prompt);
    expect(calls.map(({ tool: name, results }) => [name, results.length])).toEqual([
      ['wipe_disk', 1],
      ['lookup', 1],
    ]);
    expect(calls[0]?.id).toBe('call_dup');
    expect(calls[1]?.id).not.toBe('call_dup');
    expect(calls[0]?.results[0]).toContain('Wiping disks is not allowed');
    expect(calls[1]?.results[0]).toContain('found weather');
    expect(decisions.map((record) => [record.toolName, record.action])).toEqual([
      ['wipe_disk', 'deny'],
      ['lookup', 'proceed'],
    ]);
  });

  it('should decide each of three calls of one tool with one id on its own arguments', async () => {
    const { ran, tools } = wipeAndLookupTools();
    const model = scriptedModel(
      step(
        toolCall('call_0', 'lookup', { q: 'a' }),
        toolCall('call_0', 'wipe_disk', { disk: 'sda' }),
        toolCall('call_0', 'lookup', { q: 'b' }),
      ),
      step(text('Done.')),
    );
    const gated: string[][] = [];
    const interventions = createInterventions({
      handlers: [noWipes],
      hooks: {
        gateToolCalls: ({ calls }) => (gated.push(calls.map((call) => call.toolCallId)), calls.map(() => InterventionActions.proceed())),
      },
    });

    await runWrapped(mode, interventions, { model, tools, prompt: 'go', stopWhen: isStepCount(3) });

    expect(ran).toEqual(['lookup a', 'lookup b']);
    expect(new Set(gated[0]).size).toBe(3);
    const calls = callsAndResults(model.calls[1]?.prompt);
    expect(calls.map(({ results }) => results.length)).toEqual([1, 1, 1]);
    expect(calls[1]?.results[0]).toContain('Wiping disks is not allowed');
  });

  it('should ask about the confirmed call only, and run the other', async () => {
    const { ran, tools } = wipeAndLookupTools();
    const model = scriptedModel(
      step(toolCall('call_dup', 'wipe_disk', { disk: 'scratch' }), toolCall('call_dup', 'lookup', { q: 'weather' })),
    );
    const interventions = createInterventions({ handlers: [noWipes] });

    const { content } = await runWrapped(mode, interventions, { model, tools, prompt: 'go', stopWhen: isStepCount(3) });

    expect(ran).toEqual(['lookup weather']);
    const asked = approvalRequests(content);
    expect(asked.map((request) => [request.toolCall.toolName, request.toolCall.toolCallId])).toEqual([['wipe_disk', 'call_dup']]);
  });
});

describe.each(['generateText', 'streamText'] as const)('wrapTools with plain %s, two calls with one id', (mode) => {
  async function runPlain(options: Parameters<typeof generateText>[0]) {
    if (mode === 'generateText') return void (await generateText(options));
    await streamText(options as Parameters<typeof streamText>[0]).consumeStream();
  }

  it('should never run the denied call, and run the allowed one', async () => {
    const { ran, tools } = wipeAndLookupTools();
    const model = scriptedModel(
      step(toolCall('call_dup', 'wipe_disk', { disk: 'sda' }), toolCall('call_dup', 'lookup', { q: 'weather' })),
      step(text('Done.')),
    );
    const interventions = createInterventions({ handlers: [noWipes] });

    await runPlain({ model, tools: interventions.wrapTools(tools), prompt: 'go', stopWhen: isStepCount(3) });

    expect(ran).toEqual(['lookup weather']);
  });

  it('should deny both calls of one tool sharing an id, with a record, when they cannot be told apart', async () => {
    const { ran, tools } = wipeAndLookupTools();
    const model = scriptedModel(
      step(toolCall('call_dup', 'lookup', { q: 'a' }), toolCall('call_dup', 'lookup', { q: 'b' })),
      step(text('Done.')),
    );
    const records: DecisionRecord[] = [];
    const allowA = defineHandler({
      name: 'only-a',
      beforeToolCall: ({ toolCall: call }) =>
        (call.input as { q: string }).q === 'a' ? InterventionActions.proceed() : InterventionActions.deny('only a'),
    });
    const interventions = createInterventions({ handlers: [allowA], hooks: { onDecision: ({ record }) => void records.push(record) } });

    await runPlain({ model, tools: interventions.wrapTools(tools), prompt: 'go', stopWhen: isStepCount(3) });

    expect(ran).toEqual([]);
    expect(
      records.filter((record) => record.handler === 'ai-interventions').map((record) => [record.toolName, record.action, record.reason]),
    ).toEqual([
      ['lookup', 'deny', expect.stringContaining('more than one tool call with this id')],
      ['lookup', 'deny', expect.stringContaining('more than one tool call with this id')],
    ]);
  });
});

describe('a ToolLoopAgent with agentSettings, two calls with one id', () => {
  it.each(['generate', 'stream'] as const)('should never run the denied call (%s)', async (method) => {
    const { ran, tools } = wipeAndLookupTools();
    const model = scriptedModel(
      step(toolCall('call_dup', 'wipe_disk', { disk: 'sda' }), toolCall('call_dup', 'lookup', { q: 'weather' })),
      step(text('Done.')),
    );
    const interventions = createInterventions({ handlers: [noWipes] });
    const agent = new ToolLoopAgent(interventions.agentSettings({ model, tools, stopWhen: isStepCount(3) }));

    if (method === 'generate') await agent.generate({ prompt: 'go' });
    else await (await agent.stream({ prompt: 'go' })).consumeStream();

    expect(ran).toEqual(['lookup weather']);
    expect(callsAndResults(model.calls[1]?.prompt).map(({ results }) => results.length)).toEqual([1, 1]);
  });
});

describe.each(['generateText', 'streamText'] as const)(
  'wrapTools with plain %s, an answer the SDK resumes on another call with its id',
  (mode) => {
    it('should run neither: the approved call is not the one the SDK resumes, and a record says so', async () => {
      const { ran, tools } = wipeAndLookupTools();
      const records: DecisionRecord[] = [];
      const interventions = createInterventions({ handlers: [noWipes], hooks: { onDecision: ({ record }) => void records.push(record) } });
      // the request was made for the wipe; a later message reuses its id for another call, and the SDK resumes the last call with the id
      const messages: ModelMessage[] = [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'wipe_disk', input: { disk: 'scratch' } },
            { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: { q: 'passwords' } }] },
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'a1', approved: true }] },
      ];
      const model = scriptedModel(step(text('Done.')));
      const options = { model, tools: interventions.wrapTools(tools), messages, stopWhen: isStepCount(2) };

      if (mode === 'generateText') await generateText(options);
      else await streamText(options).consumeStream();

      expect(ran).toEqual([]);
      expect(records.at(-1)).toMatchObject({
        handler: 'ai-interventions',
        action: 'deny',
        toolName: 'lookup',
        reason: expect.stringContaining('the approval answered another call'),
      });
    });
  },
);

describe.each(['generateText', 'streamText'] as const)('a resumed history holding two calls with the answered id (%s)', (mode) => {
  it('should run neither: the answer cannot be told to be either call, and a record says so', async () => {
    const { ran, tools } = wipeAndLookupTools();
    const interventions = createInterventions({
      approvalSecret: 'secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
      handlers: [defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Run it?') })],
    });
    // a client (or a history written by the plain SDK) keeps two calls with one id in one message
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: { q: 'weather' } },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'wipe_disk', input: { disk: 'scratch' } },
          { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'a1', approved: true }] },
    ];
    const { decisions } = await runWrapped(mode, interventions, {
      model: scriptedModel(step(text('Done.'))),
      tools,
      messages,
      stopWhen: isStepCount(2),
    }).catch(() => ({ decisions: [] as DecisionRecord[] }));
    expect(ran).toEqual([]);
    expect(decisions.some((record) => record.action === 'deny' && record.reason?.includes('more than one tool call with the id'))).toBe(
      true,
    );
  });
});

describe('two calls with one id in a held streamText step (an onResponse hook holds the whole step)', () => {
  it('should stream each call under its own id, never run the denied one, and give each call one result', async () => {
    const { ran, tools } = wipeAndLookupTools();
    const model = scriptedModel(
      step(toolCall('call_dup', 'wipe_disk', { disk: 'sda' }), toolCall('call_dup', 'lookup', { q: 'weather' })),
      step(text('Done.')),
    );
    const interventions = createInterventions({ handlers: [noWipes], hooks: { onResponse: () => undefined } });

    const result = interventions.streamText({ model, tools, prompt: 'go', stopWhen: isStepCount(3) });
    const streamed: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-call') streamed.push(`call ${part.toolCallId} ${part.toolName}`);
    }

    expect(ran).toEqual(['lookup weather']);
    const calls = callsAndResults(model.calls[1]?.prompt);
    expect(calls.map(({ results }) => results.length)).toEqual([1, 1]);
    const second = calls[1]?.id;
    expect(second).not.toBe('call_dup');
    expect(streamed).toEqual(['call call_dup wipe_disk', `call ${second} lookup`]);
  });
});
