import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import {
  convertToModelMessages,
  isStepCount,
  type LanguageModel,
  readUIMessageStream,
  streamText,
  ToolLoopAgent,
  tool,
  toUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  validateUIMessages,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  APPROVAL_ANSWER_PREFIX,
  approvalAnswer,
  approvalReasonText,
  createApprovalLedger,
  createInterventions,
  defineHandler,
  InterventionActions,
  type InterventionData,
  type Interventions,
  type InterventionUIMessage,
  redactPii,
  redactSecrets,
  toInterventionsUIMessageStream,
} from '../../src/index.ts';
import { TestChat } from '../helpers/chat.ts';
import {
  type OpenAICompatibleServer,
  replyText,
  replyToolCalls,
  startOpenAICompatibleServer,
  toolCall as wireToolCall,
} from '../helpers/openai-compatible-server.ts';
import { scriptedModel, step, text, toolCall, usage } from '../helpers/scripted-model.ts';

/** wipe is denied, email guided, deploy confirmed; `ran` records what executed. */
function setup() {
  const ran: Array<{ tool: string; input: unknown }> = [];
  const interventions = createInterventions({
    approvalSecret: 'secret-with-at-least-32-bytes-for-hmac',
    approvalLedger: createApprovalLedger(),
    handlers: [
      defineHandler({
        name: 'policy',
        beforeToolCall: ({ toolCall: call }) =>
          call.toolName === 'wipe'
            ? InterventionActions.deny('Wiping is not allowed in this environment (policy 7).', 'Wiping is off')
            : call.toolName === 'email'
              ? InterventionActions.guide('Add a subject line.')
              : call.toolName === 'deploy'
                ? InterventionActions.confirm('Deploy to production?', 'Deploys need a person')
                : InterventionActions.proceed(),
      }),
    ],
  });
  const make = (name: string) =>
    tool({
      inputSchema: z.object({ env: z.string().optional() }),
      execute: async (input) => (ran.push({ tool: name, input }), `${name} ran`),
    });
  const tools = { wipe: make('wipe'), email: make('email'), deploy: make('deploy'), search: make('search') };
  return { interventions, tools, ran };
}

const firstTurn = () =>
  scriptedModel(
    step(toolCall('1', 'wipe', {}), toolCall('2', 'email', {}), toolCall('3', 'search', {}), toolCall('4', 'deploy', { env: 'prod' })),
    step(text('x')),
  );

async function readMessage(stream: ReadableStream<UIMessageChunk>, message?: InterventionUIMessage): Promise<InterventionUIMessage> {
  let last: InterventionUIMessage | undefined;
  for await (const update of readUIMessageStream<InterventionUIMessage>({ stream, ...(message ? { message } : {}) })) last = update;
  if (last === undefined) throw new Error('no message');
  return last;
}

async function chunksOf(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const decisionsOf = (message: InterventionUIMessage): InterventionData[] =>
  message.parts.flatMap((part) => (part.type === 'data-intervention' ? [part.data] : []));

describe('decisions in the UI message stream', () => {
  it('should follow each tool part a handler acted on with a data-intervention part: handler, action, a short reason for people, the records', async () => {
    const { interventions, tools, ran } = setup();
    const result = interventions.streamText({ model: firstTurn(), tools, stopWhen: isStepCount(3), prompt: 'go' });
    const message = await readMessage(result.toUIMessageStream());

    expect(ran).toEqual([{ tool: 'search', input: {} }]);
    expect(message.parts.map((part) => (part.type === 'data-intervention' ? `data:${part.data.toolName}` : part.type))).toEqual([
      'step-start',
      'tool-wipe',
      'data:wipe',
      'tool-email',
      'data:email',
      'tool-search',
      'tool-deploy',
      'data:deploy',
    ]);
    const [wipe, email, deploy] = decisionsOf(message);
    expect(wipe).toEqual({
      toolCallId: '1',
      toolName: 'wipe',
      action: 'deny',
      handler: 'policy',
      reason: 'Wiping is off',
      stepNumber: 0,
      records: [
        expect.objectContaining({
          handler: 'policy',
          action: 'deny',
          reason: 'Wiping is not allowed in this environment (policy 7).',
          display: 'Wiping is off',
          enforced: true,
        }),
      ],
    });
    expect(email).toMatchObject({ action: 'guide', handler: 'policy', reason: 'Add a subject line.' });
    // search: every handler let it through, so no part (the SDK's own parts say it ran)
    expect(decisionsOf(message).map((decision) => decision.toolName)).not.toContain('search');
    expect(deploy).toMatchObject({ action: 'confirm', handler: 'policy', reason: 'Deploys need a person' });

    // what the model reads is unchanged: the reason for people is not in it
    const wipePart = message.parts.find((part) => part.type === 'tool-wipe');
    expect(wipePart).toMatchObject({ state: 'output-denied', approval: { reason: expect.stringContaining('(policy 7)') } });
    expect(JSON.stringify(wipePart)).not.toContain('Wiping is off');
  });

  it('should give the function form (toInterventionsUIMessageStream) and toUIMessageStreamResponse the same chunks as result.toUIMessageStream()', async () => {
    const normalize = (chunks: readonly UIMessageChunk[]) =>
      JSON.parse(
        JSON.stringify(chunks)
          .replace(/"id":"[^"]*-(\d+)"/g, '"id":"run-$1"')
          .replace(/"durationMs":[\d.e-]+/g, '"durationMs":0')
          .replace(/"(approvalId|signature)":"[^"]*"/g, '"$1":"x"'),
      );
    const method = setup();
    const viaMethod = await chunksOf(
      method.interventions.streamText({ model: firstTurn(), tools: method.tools, prompt: 'go' }).toUIMessageStream(),
    );

    const fn = setup();
    const result = fn.interventions.streamText({ model: firstTurn(), tools: fn.tools, prompt: 'go' });
    const viaFunction = await chunksOf(
      toInterventionsUIMessageStream({ stream: result.stream, interventions: result.interventions, tools: fn.tools }),
    );

    const response = setup();
    const sse = await response.interventions
      .streamText({ model: firstTurn(), tools: response.tools, prompt: 'go' })
      .toUIMessageStreamResponse()
      .text();
    const viaResponse = sse
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
      .map((line) => JSON.parse(line.slice(6)) as UIMessageChunk);

    expect(viaMethod.filter((chunk) => chunk.type === 'data-intervention')).toHaveLength(3);
    expect(normalize(viaFunction)).toEqual(normalize(viaMethod));
    expect(normalize(viaResponse)).toEqual(normalize(viaMethod));
  });

  it('should give onEnd and onStepEnd the message the client builds, data parts included (what an app persists)', async () => {
    const { interventions, tools } = setup();
    const ended: InterventionUIMessage[] = [];
    const stepped: InterventionUIMessage[] = [];
    const result = interventions.streamText({ model: firstTurn(), tools, prompt: 'go' });
    const stream = result.toUIMessageStream<InterventionUIMessage>({
      onEnd: ({ responseMessage }) => void ended.push(responseMessage),
      onStepEnd: ({ responseMessage }) => void stepped.push(responseMessage),
    });
    const client = await readMessage(stream);
    expect(decisionsOf(ended[0] as InterventionUIMessage)).toHaveLength(3);
    expect(ended[0]?.parts).toEqual(client.parts);
    expect(decisionsOf(stepped[0] as InterventionUIMessage)).toHaveLength(3);
    expect(JSON.stringify(ended)).not.toContain('"type":"custom"');
  });

  it("should add a part for every decided call, proceed included, with decisionParts: 'all'", async () => {
    const { tools } = setup();
    const interventions = createInterventions({
      decisionParts: 'all',
      handlers: [
        defineHandler({
          name: 'policy',
          beforeToolCall: ({ toolCall: call }) =>
            call.toolName === 'wipe' ? InterventionActions.deny('No.') : InterventionActions.proceed(),
        }),
      ],
    });
    const result = interventions.streamText({ model: firstTurn(), tools, stopWhen: isStepCount(3), prompt: 'go' });
    const decisions = decisionsOf(await readMessage(result.toUIMessageStream()));
    expect(decisions.map((decision) => [decision.toolName, decision.action])).toEqual([
      ['wipe', 'deny'],
      ['email', 'proceed'],
      ['search', 'proceed'],
      ['deploy', 'proceed'],
    ]);
  });

  it("should show a confirm that outranks a guide with the guide's feedback, for the person who answers it", async () => {
    const { tools } = setup();
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'style',
          beforeToolCall: ({ toolCall: call }) =>
            call.toolName === 'deploy' ? InterventionActions.guide('Tag the release first.') : InterventionActions.proceed(),
        }),
        defineHandler({
          name: 'change-board',
          beforeToolCall: ({ toolCall: call }) =>
            call.toolName === 'deploy' ? InterventionActions.confirm('Deploy to production?') : InterventionActions.proceed(),
        }),
      ],
    });
    const model = scriptedModel(step(toolCall('4', 'deploy', { env: 'prod' })), step(text('x')));
    const result = interventions.streamText({ model, tools, stopWhen: isStepCount(3), prompt: 'go' });
    const message = await readMessage(result.toUIMessageStream());

    const [deploy] = decisionsOf(message);
    expect(deploy).toMatchObject({
      action: 'confirm',
      handler: 'change-board',
      reason: 'Deploy to production?',
      guidance: [{ handler: 'style', feedback: 'Tag the release first.' }],
    });
    const part = message.parts.find((item) => item.type === 'tool-deploy');
    expect(part).toMatchObject({
      state: 'approval-requested',
      approval: { requestReason: expect.stringContaining('[style] Tag the release first.') },
    });
  });

  it('should stream exactly what the raw SDK streams when every handler lets every call through', async () => {
    const { tools } = setup();
    const raw = await chunksOf(streamText({ model: firstTurn(), tools, stopWhen: isStepCount(3), prompt: 'go' }).toUIMessageStream());
    const interventions = createInterventions({
      handlers: [defineHandler({ name: 'no-op', beforeToolCall: () => InterventionActions.proceed() })],
    });
    const wrapped = await chunksOf(
      interventions.streamText({ model: firstTurn(), tools, stopWhen: isStepCount(3), prompt: 'go' }).toUIMessageStream(),
    );
    expect(wrapped).toEqual(raw);
  });

  it("should carry a failed handler's error as a stable code, never its message", async () => {
    const { tools } = setup();
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'token-check',
          onError: 'deny',
          beforeToolCall: () => {
            throw new Error('token sk-live-0123456789abcdef was rejected');
          },
        }),
      ],
    });
    const result = interventions.streamText({ model: firstTurn(), tools, stopWhen: isStepCount(3), prompt: 'go' });
    const message = await readMessage(result.toUIMessageStream());
    const [first] = decisionsOf(message);
    expect(first?.records[0]).toMatchObject({ handler: 'token-check', action: 'deny', error: 'handler-failed' });
    expect(JSON.stringify(message)).not.toContain('sk-live');
    // the server's own records keep the error
    expect(String(result.interventions.decisions[0]?.error)).toContain('token-check');
  });

  it('should show people nothing the registered redaction rules remove, in reasons, prompts and records', async () => {
    const { tools } = setup();
    const ssn = '123-45-6789';
    const token = 'sk-live-0123456789abcdef0123';
    const interventions = createInterventions({
      // redactSecrets as a handler only, redactPii as a redactor only: both rules apply to what people see
      handlers: [
        redactSecrets(),
        defineHandler({
          name: 'policy',
          beforeToolCall: ({ toolCall: call }) =>
            call.toolName === 'wipe'
              ? InterventionActions.deny(`Token ${token} may not wipe`)
              : call.toolName === 'deploy'
                ? InterventionActions.confirm(`Deploy for SSN ${ssn}?`)
                : InterventionActions.proceed(),
        }),
      ],
      redactors: [redactPii().redactor],
      decisionParts: 'all',
    });
    const result = interventions.streamText({ model: firstTurn(), tools, stopWhen: isStepCount(3), prompt: 'go' });
    const message = await readMessage(result.toUIMessageStream());
    const shown = JSON.stringify(decisionsOf(message));
    expect(shown).not.toContain(ssn);
    expect(shown).not.toContain(token);
    const [wipe, , , deploy] = decisionsOf(message);
    expect(wipe).toMatchObject({ toolName: 'wipe', action: 'deny' });
    expect(wipe?.reason).toBe('Token [API_KEY] may not wipe');
    expect(deploy).toMatchObject({ toolName: 'deploy', action: 'confirm' });
    expect(deploy?.reason).not.toBe(`Deploy for SSN ${ssn}?`);
    // the server's own records keep the words
    expect(result.interventions.decisions.some((record) => record.reason?.includes(token))).toBe(true);
  });

  it("should leave the SDK's result.toUIMessageStream as it is when nothing decides tool calls", async () => {
    const interventions = createInterventions({ hooks: { onChatStart: () => {} } });
    const result = interventions.streamText({ model: scriptedModel(step(text('hi'))), prompt: 'go' });
    expect(Object.hasOwn(result, 'toUIMessageStream')).toBe(false);
    const chunks = await chunksOf(toInterventionsUIMessageStream({ stream: result.stream, interventions: result.interventions }));
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-delta',
      'text-end',
      'finish-step',
      'finish',
    ]);
  });

  it('should type useChat messages: a data-intervention part holds InterventionData', () => {
    const part = {} as InterventionUIMessage['parts'][number];
    if (part.type === 'data-intervention') expectTypeOf(part.data).toEqualTypeOf<InterventionData>();
    expectTypeOf<InterventionUIMessage>().toExtend<UIMessage>();
  });
});

describe("a stopped call to a tool the app's client runs (no execute), in useChat", () => {
  // getLocation runs in the browser: useChat's onToolCall runs it when the stream says its input is available
  const clientTools = () => ({ getLocation: tool({ inputSchema: z.object({ precise: z.boolean() }) }) });
  const noLocation = defineHandler({
    name: 'no-location',
    beforeToolCall: ({ toolCall: call }) =>
      call.toolName === 'getLocation' ? InterventionActions.deny('Location is off for this workspace.') : InterventionActions.proceed(),
  });
  const streamOf = (parts: readonly LanguageModelV4StreamPart[]) => ({
    stream: new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  });
  /** The call with its input streamed first, as providers stream it, then text. */
  const streamedInput = (): LanguageModel =>
    new MockLanguageModelV4({
      doStream: [
        streamOf([
          { type: 'stream-start', warnings: [] },
          { type: 'tool-input-start', id: 'c1', toolName: 'getLocation' },
          { type: 'tool-input-delta', id: 'c1', delta: '{"precise"' },
          { type: 'tool-input-delta', id: 'c1', delta: ':true}' },
          { type: 'tool-input-end', id: 'c1' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'getLocation', input: '{"precise":true}' },
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
        ]),
        streamOf([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'I cannot see your location.' },
          { type: 'text-end', id: 't1' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
        ]),
      ],
    });
  const wholeCall = () => scriptedModel(step(toolCall('c1', 'getLocation', { precise: true })), step(text('I cannot see your location.')));

  /** One useChat turn answered by `respond`: what the chat's onToolCall was asked to run, and the chat's last message. */
  async function chatTurn(
    respond: (messages: InterventionUIMessage[]) => ReadableStream<UIMessageChunk> | Promise<ReadableStream<UIMessageChunk>>,
  ) {
    const asked: string[] = [];
    const chat = new TestChat<InterventionUIMessage>({ respond, onToolCall: (call) => void asked.push(call.toolName) });
    await chat.sendMessage({ text: 'Where am I?' });
    return { asked, messages: chat.all, part: chat.all.at(-1)?.parts.find((part) => part.type === 'tool-getLocation') };
  }

  it('should be run by the client with the raw SDK (the reference: a denied call still asks the client)', async () => {
    const { asked } = await chatTurn(() =>
      streamText({
        model: wholeCall(),
        tools: clientTools(),
        toolApproval: { getLocation: { type: 'denied', reason: 'off' } },
        stopWhen: isStepCount(3),
        prompt: 'Where am I?',
      }).toUIMessageStream(),
    );
    expect(asked).toEqual(['getLocation']);
  });

  it.each([
    ['whole', wholeCall],
    ['streamed', streamedInput],
  ] as const)('should never ask the client to run it through interventions.streamText (its input %s)', async (_, model) => {
    const interventions = createInterventions({ handlers: [noLocation] });
    const provider = model();
    const { asked, part, messages } = await chatTurn(() =>
      interventions
        .streamText({ model: provider, tools: clientTools(), stopWhen: isStepCount(3), prompt: 'Where am I?' })
        .toUIMessageStream(),
    );
    expect(asked).toEqual([]);
    // the part shows the call's input, and that it was denied, with the runtime's wording
    expect(part).toMatchObject({ state: 'output-denied', input: { precise: true }, approval: { approved: false } });
    // the next request (useChat sends the messages back) gives the model the denial, not a pending call
    const next = await convertToModelMessages(await validateUIMessages({ messages }), { tools: clientTools() });
    const results = next.flatMap((message) => (message.role === 'tool' ? message.content : []));
    const calls = next.flatMap((message) =>
      message.role === 'assistant' && typeof message.content !== 'string'
        ? message.content.filter((item) => item.type === 'tool-call')
        : [],
    );
    expect(calls.map((call) => call.toolCallId)).toEqual(['c1']);
    expect(results.filter((item) => item.type === 'tool-result').map((item) => item.toolCallId)).toEqual(['c1']);
    expect(JSON.stringify(results)).toContain('Location is off for this workspace.');
  });

  it("should never ask the client to run it through an agent's UI stream", async () => {
    const interventions = createInterventions({ handlers: [noLocation] });
    const agent = new ToolLoopAgent(interventions.agentSettings({ model: wholeCall(), tools: clientTools(), stopWhen: isStepCount(3) }));
    const { asked, part } = await chatTurn((messages) => interventions.createAgentUIStream({ agent, uiMessages: messages }));
    expect(asked).toEqual([]);
    expect(part).toMatchObject({ state: 'output-denied', input: { precise: true } });
  });

  it('should still ask the client to run a call nobody stopped', async () => {
    const interventions = createInterventions({ handlers: [noLocation] });
    const { asked } = await chatTurn(() =>
      interventions
        .streamText({
          model: scriptedModel(step(toolCall('c1', 'getWeather', {}))),
          tools: { getWeather: tool({ inputSchema: z.object({}) }) },
          stopWhen: isStepCount(3),
          prompt: 'Weather?',
        })
        .toUIMessageStream(),
    );
    expect(asked).toEqual(['getWeather']);
  });
});

describe('a useChat round trip with typed answers', () => {
  /** The chat so far (UI messages), a route that answers it, and what ran. */
  function chat(model: LanguageModel, interventions: Interventions) {
    const ran: string[] = [];
    const tools = {
      delete_file: tool({ inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => (ran.push(path), `deleted ${path}`) }),
    };
    const route = async (messages: InterventionUIMessage[]) => {
      const valid = await validateUIMessages<InterventionUIMessage>({ messages, tools });
      const result = interventions.streamText({
        model,
        tools,
        stopWhen: isStepCount(3),
        messages: await convertToModelMessages(valid, { tools }),
      });
      const last = valid.at(-1);
      return readMessage(
        result.toUIMessageStream({ originalMessages: valid }),
        last?.role === 'assistant' ? structuredClone(last) : undefined,
      );
    };
    return { ran, route };
  }

  /** What addToolApprovalResponse does to the message: the pending part answered. */
  function answer(message: InterventionUIMessage, response: { approved: boolean; reason?: string }): InterventionUIMessage {
    return {
      ...message,
      parts: message.parts.map((part) =>
        'approval' in part && part.state === 'approval-requested'
          ? { ...part, state: 'approval-responded' as const, approval: { ...part.approval, ...response } }
          : part,
      ) as InterventionUIMessage['parts'],
    };
  }

  /** The chat after its first turn: the model asked to delete /tmp/a, and a handler asks the person. */
  async function askedToDelete(answerAfterResume: string) {
    const model = scriptedModel(step(toolCall('c1', 'delete_file', { path: '/tmp/a' })), step(text(answerAfterResume)), step(text('ok')));
    const interventions = createInterventions({
      approvalSecret: 'secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
      handlers: [defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Delete it?') })],
    });
    const { ran, route } = chat(model, interventions);
    const user: InterventionUIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'delete /tmp/a' }] };
    const asked = await route([user]);
    const pending = asked.parts.find((part) => part.type === 'tool-delete_file');
    if (pending?.type !== 'tool-delete_file' || pending.state !== 'approval-requested') throw new Error('no approval request');
    return { model, ran, route, user, asked, pending };
  }

  it('should run an edited approval with its arguments, show them in the tool part and the data part, and keep the encoding and the data parts from the model', async () => {
    const { model, ran, route, user, asked, pending } = await askedToDelete('Deleted /tmp/b.');
    expect(decisionsOf(asked)).toEqual([expect.objectContaining({ action: 'confirm', handler: 'ask', reason: 'Delete it?' })]);

    const edited = answer(
      asked,
      approvalAnswer({ id: pending.approval.id, approved: true, input: { path: '/tmp/b' }, remember: 'session' }),
    );
    const resumed = await route([user, edited]);
    expect(ran).toEqual(['/tmp/b']);
    const part = resumed.parts.find((item) => item.type === 'tool-delete_file');
    expect(part).toMatchObject({ state: 'output-available', input: { path: '/tmp/b' }, output: 'deleted /tmp/b' });
    expect(decisionsOf(resumed)).toEqual([
      expect.objectContaining({ action: 'confirm' }),
      expect.objectContaining({
        action: 'proceed',
        answer: { approved: true, remember: 'session', edited: true },
        input: { path: '/tmp/b' },
        records: [expect.objectContaining({ handler: 'ask', action: 'confirm', enforced: false })],
      }),
    ]);

    // the next turn: the model reads the call as it ran, no data parts, no encoding
    await route([user, resumed, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'thanks' }] }]);
    const next = JSON.stringify(model.calls[2]?.prompt);
    expect(next).toContain('"toolCallId":"c1","toolName":"delete_file","input":{"path":"/tmp/b"}');
    expect(next).not.toContain('{"path":"/tmp/a"}');
    expect(next).not.toContain(APPROVAL_ANSWER_PREFIX);
    expect(next).not.toContain('intervention');
    expect(ran).toEqual(['/tmp/b']);
  });

  it("should show a refusal as a deny with the person's reason and no handler, and word it for the model on every later turn", async () => {
    const { model, ran, route, user, asked, pending } = await askedToDelete('Not deleted.');
    const refused = await route([user, answer(asked, approvalAnswer({ id: pending.approval.id, approved: false, reason: 'Keep it' }))]);
    // the person's plain refusal is the SDK's own part (output-denied): no decision part of its own, and its reason reads as their words
    expect(decisionsOf(refused).map((decision) => decision.action)).toEqual(['confirm']);
    const part = refused.parts.find((item) => item.type === 'tool-delete_file');
    expect(part).toMatchObject({ state: 'output-denied' });
    expect(approvalReasonText(part?.type === 'tool-delete_file' ? part.approval?.reason : undefined)).toBe('Keep it');
    expect(JSON.stringify(model.calls[1]?.prompt)).toContain(
      'The user did not approve the call to \\"delete_file\\", so it was not executed. Their reason: Keep it',
    );

    await route([user, refused, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'ok' }] }]);
    const later = JSON.stringify(model.calls[2]?.prompt);
    expect(later).toContain('Their reason: Keep it');
    expect(later).not.toContain(APPROVAL_ANSWER_PREFIX);
    expect(ran).toEqual([]);
  });
});

describe('decisions in the UI with the real @ai-sdk/openai provider', () => {
  let server: OpenAICompatibleServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each(['chat', 'responses'] as const)("should place a decision after the call's streamed input is complete (%s API)", async (api) => {
    server = await startOpenAICompatibleServer({
      script: [replyToolCalls(wireToolCall('call_1', 'wipe', { env: 'production-cluster-eu-west' })), replyText('I may not wipe it.')],
    });
    const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test' });
    const model = api === 'chat' ? provider.chat('gpt-test') : provider.responses('gpt-test');
    const { interventions, tools } = setup();
    const chunks = await chunksOf(interventions.streamText({ model, tools, stopWhen: isStepCount(3), prompt: 'wipe' }).toUIMessageStream());
    const types = chunks.map((chunk) => chunk.type);
    expect(types).toContain('tool-input-delta');
    const data = types.indexOf('data-intervention');
    expect(data).toBeGreaterThan(types.indexOf('tool-input-available'));
    expect(types.lastIndexOf('tool-input-delta')).toBeLessThan(data);
  });

  it.each(['chat', 'responses'] as const)('should put the edited arguments on the wire (%s API), signed and run once', async (api) => {
    server = await startOpenAICompatibleServer({
      script: [replyToolCalls(wireToolCall('call_1', 'delete_file', { path: '/tmp/a' })), replyText('Deleted /tmp/b.')],
    });
    const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test' });
    const model = api === 'chat' ? provider.chat('gpt-test') : provider.responses('gpt-test');
    const ran: string[] = [];
    const tools = {
      delete_file: tool({ inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => (ran.push(path), `deleted ${path}`) }),
    };
    const interventions = createInterventions({
      approvalSecret: 'secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
      handlers: [defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Delete it?') })],
    });
    const user: InterventionUIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'delete /tmp/a' }] };
    const first = interventions.streamText({
      model,
      tools,
      stopWhen: isStepCount(3),
      messages: await convertToModelMessages([user], { tools }),
    });
    const asked = await readMessage(first.toUIMessageStream({ originalMessages: [user] }));
    const pending = asked.parts.find((part) => part.type === 'tool-delete_file');
    if (pending?.type !== 'tool-delete_file' || pending.state !== 'approval-requested') throw new Error('no approval request');
    const answered: InterventionUIMessage = {
      ...asked,
      parts: asked.parts.map((part) =>
        part === pending
          ? {
              ...pending,
              state: 'approval-responded' as const,
              approval: { ...pending.approval, ...approvalAnswer({ id: pending.approval.id, approved: true, input: { path: '/tmp/b' } }) },
            }
          : part,
      ) as InterventionUIMessage['parts'],
    };
    const second = interventions.streamText({
      model,
      tools,
      stopWhen: isStepCount(3),
      messages: await convertToModelMessages([user, answered], { tools }),
    });
    const resumed = await readMessage(second.toUIMessageStream({ originalMessages: [user, answered] }), structuredClone(answered));
    expect(ran).toEqual(['/tmp/b']);
    expect(resumed.parts.find((part) => part.type === 'tool-delete_file')).toMatchObject({ input: { path: '/tmp/b' } });
    const wire = JSON.stringify(server.requests[1]?.body);
    expect(wire).toContain(api === 'chat' ? '"arguments":"{\\"path\\":\\"/tmp/b\\"}"' : '/tmp/b');
    expect(wire).not.toContain('{\\"path\\":\\"/tmp/a\\"}');
    expect(wire).not.toContain(APPROVAL_ANSWER_PREFIX);
    expect(wire).toContain('deleted /tmp/b');
  });
});

// the SDK's function form, unchanged, is still what it was: no data parts
it("should keep the SDK's own toUIMessageStream function free of data parts", async () => {
  const { interventions, tools } = setup();
  const result = interventions.streamText({ model: firstTurn(), tools, prompt: 'go' });
  const chunks = await chunksOf(toUIMessageStream({ stream: result.stream }));
  expect(chunks.some((chunk) => chunk.type === 'data-intervention' || chunk.type === 'custom')).toBe(false);
});
