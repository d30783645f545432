/**
 * An agent's UI stream shows the decisions of its run as `streamText`'s
 * does: `interventions.createAgentUIStream` / `createAgentUIStreamResponse`
 * run the SDK's own functions, with a `data-intervention` part after each
 * call a handler acted on, and are the SDK's own, chunk for chunk, when
 * nothing acted.
 */
import { createAgentUIStream, isStepCount, readUIMessageStream, ToolLoopAgent, tool, type UIMessageChunk, validateUIMessages } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createInterventions,
  defineHandler,
  InterventionActions,
  type InterventionData,
  type InterventionHandlerLike,
  type InterventionUIMessage,
} from '../../src/index.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const turns = () =>
  scriptedModel(step(toolCall('1', 'wipe', {}), toolCall('2', 'email', {}), toolCall('3', 'search', {})), step(text('done')));

function setup(handlers: InterventionHandlerLike[]) {
  const ran: string[] = [];
  const make = (name: string) => tool({ inputSchema: z.object({}), execute: async () => (ran.push(name), `${name} ran`) });
  const tools = { wipe: make('wipe'), email: make('email'), search: make('search') };
  const interventions = createInterventions({ handlers });
  return { interventions, tools, ran };
}

const policy = defineHandler({
  name: 'policy',
  beforeToolCall: ({ toolCall: call }) =>
    call.toolName === 'wipe'
      ? InterventionActions.deny('Wiping is not allowed.', 'Wiping is off')
      : call.toolName === 'email'
        ? InterventionActions.guide('Add a subject line.')
        : InterventionActions.proceed(),
});

const uiMessages: InterventionUIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }] }];

async function chunksOf(stream: AsyncIterable<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function messageOf(chunks: readonly UIMessageChunk[]): Promise<InterventionUIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: InterventionUIMessage | undefined;
  for await (const update of readUIMessageStream<InterventionUIMessage>({ stream })) last = update;
  if (last === undefined) throw new Error('no message');
  return last;
}

const decisionsOf = (message: InterventionUIMessage): InterventionData[] =>
  message.parts.flatMap((part) => (part.type === 'data-intervention' ? [part.data] : []));

describe('interventions.createAgentUIStream', () => {
  it("should show the agent's decisions as streamText's UI stream does", async () => {
    const { interventions, tools, ran } = setup([policy]);
    const agent = new ToolLoopAgent(interventions.agentSettings({ model: turns(), tools, stopWhen: isStepCount(3) }));
    const fromAgent = await messageOf(await chunksOf(await interventions.createAgentUIStream({ agent, uiMessages })));
    const fromStream = await messageOf(
      await chunksOf(interventions.streamText({ model: turns(), tools, stopWhen: isStepCount(3), prompt: 'go' }).toUIMessageStream()),
    );
    expect(ran).toEqual(['search', 'search']);
    const summary = (message: InterventionUIMessage) =>
      message.parts.map((part) => (part.type === 'data-intervention' ? `data:${part.data.toolName}:${part.data.action}` : part.type));
    expect(summary(fromAgent)).toEqual(summary(fromStream));
    expect(summary(fromAgent)).toContain('data:wipe:deny');
    expect(decisionsOf(fromAgent).map(({ records, ...data }) => data)).toEqual(decisionsOf(fromStream).map(({ records, ...data }) => data));
    // what useChat sends back validates with the decision parts in it
    await expect(validateUIMessages({ messages: [...uiMessages, fromAgent] })).resolves.toHaveLength(2);
  });

  it('should stream what the SDK streams, chunk for chunk, when every handler lets every call through', async () => {
    const noop = defineHandler({ name: 'no-op', beforeToolCall: () => InterventionActions.proceed() });
    const raw = setup([]);
    const rawAgent = new ToolLoopAgent({ model: turns(), tools: raw.tools, stopWhen: isStepCount(3) });
    const rawChunks = await chunksOf(await createAgentUIStream({ agent: rawAgent, uiMessages }));
    const wrapped = setup([noop]);
    const agent = new ToolLoopAgent(
      wrapped.interventions.agentSettings({ model: turns(), tools: wrapped.tools, stopWhen: isStepCount(3) }),
    );
    const wrappedChunks = await chunksOf(await wrapped.interventions.createAgentUIStream({ agent, uiMessages }));
    expect(wrappedChunks).toEqual(rawChunks);
    expect(wrapped.ran).toEqual(raw.ran);
  });

  it('should give onEnd the message with its decisions as data parts', async () => {
    const { interventions, tools } = setup([policy]);
    const agent = new ToolLoopAgent(interventions.agentSettings({ model: turns(), tools, stopWhen: isStepCount(3) }));
    let ended: InterventionUIMessage | undefined;
    await chunksOf(
      await interventions.createAgentUIStream({
        agent,
        uiMessages,
        onEnd: ({ responseMessage }) => {
          ended = responseMessage as InterventionUIMessage;
        },
      }),
    );
    expect(decisionsOf(ended ?? { id: '', role: 'assistant', parts: [] }).map((data) => data.toolName)).toEqual(['wipe', 'email']);
  });
});

describe('interventions.createAgentUIStreamResponse', () => {
  it("should answer with the SDK's UI message stream response, decisions included", async () => {
    const { interventions, tools } = setup([policy]);
    const agent = new ToolLoopAgent(interventions.agentSettings({ model: turns(), tools, stopWhen: isStepCount(3) }));
    const response = await interventions.createAgentUIStreamResponse({ agent, uiMessages, headers: { 'x-chat': 'c1' } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-chat')).toBe('c1');
    const body = await response.text();
    expect(body).toContain('"type":"data-intervention"');
    expect(body).toContain('Wiping is off');
  });
});
