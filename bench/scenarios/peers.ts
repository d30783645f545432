/**
 * The peers doing the same job in their own loops: an agent with one tool
 * `echo`, a scripted fake model that calls it N-1 times and then answers
 * "done", and K no-op extension points.
 *
 * Both fake models derive the step from the history they are sent (the
 * number of assistant messages so far), so one model instance serves every
 * run and the agent is built once per scenario, as an application would.
 */
import { z } from 'zod';
import { type Constructor, loadLangChain, loadLangChainChatModels, loadStrands } from '../lib/bench-deps.ts';
import type { Workload } from '../lib/measure.ts';

/**
 * LangChain.js v1 `createAgent` with K no-op middleware (beforeModel and
 * afterModel return nothing, wrapToolCall calls the handler), and a minimal
 * `BaseChatModel` subclass. (langchain's `FakeToolCallingModel` answers with
 * every message of the history joined into one string, which grows with N;
 * this one answers with a fixed message.)
 */
export async function langchainWorkload(k: number, steps: number): Promise<Workload> {
  const { createAgent, createMiddleware, tool, AIMessage } = await loadLangChain();
  const { BaseChatModel } = await loadLangChainChatModels();

  class ScriptedChatModel extends (BaseChatModel as Constructor) {
    _llmType() {
      return 'scripted';
    }
    bindTools() {
      return this;
    }
    async _generate(messages: readonly unknown[]) {
      let done = 0;
      for (const message of messages) if (AIMessage.isInstance(message)) done++;
      const step = done + 1;
      const message =
        step < steps
          ? new AIMessage({
              content: '',
              tool_calls: [{ id: `call-${step}`, name: 'echo', args: { text: `step ${step}` }, type: 'tool_call' }],
            })
          : new AIMessage('done');
      return { generations: [{ text: '', message }] };
    }
  }

  let executed = 0;
  const echo = tool(
    async ({ text }: { text: string }) => {
      executed++;
      return text;
    },
    { name: 'echo', description: 'Echo the text back.', schema: z.object({ text: z.string() }) },
  );
  const middleware = Array.from({ length: k }, (_, i) =>
    createMiddleware({
      name: `noop-${i}`,
      beforeModel: () => undefined,
      afterModel: () => undefined,
      wrapToolCall: (request, handler) => handler(request),
    }),
  );
  const agent = createAgent({ model: new (ScriptedChatModel as new (fields: object) => object)({}), tools: [echo], middleware });

  return {
    steps,
    async run() {
      const before = executed;
      // each middleware hook is a graph node: raise LangGraph's default limit of 25 super-steps
      const result = await agent.invoke({ messages: [{ role: 'user', content: 'Echo every step.' }] }, { recursionLimit: 100_000 });
      const last = result.messages.at(-1);
      if (result.messages.length !== 2 * steps || last?.content !== 'done' || executed - before !== steps - 1) {
        throw new Error(`LangChain run did not follow the script: ${result.messages.length} messages, ${executed - before} tool calls`);
      }
    },
  };
}

/**
 * Strands Agents TS `Agent` with K no-op `InterventionHandler`s (all five
 * methods return `InterventionActions.proceed()`), and a `Model` subclass
 * streaming scripted events as the SDK's own test model does. The history is
 * cleared before each run, and `NullConversationManager` keeps the whole
 * history during a run (the default sliding window would trim it at N = 50;
 * the AI SDK keeps everything too).
 */
export async function strandsWorkload(k: number, steps: number): Promise<Workload> {
  const { Agent, Model, InterventionHandler, InterventionActions, NullConversationManager, tool } = await loadStrands();

  class ScriptedModel extends (Model as Constructor) {
    config: Record<string, unknown> = { modelId: 'scripted' };
    updateConfig(config: Record<string, unknown>) {
      this.config = { ...this.config, ...config };
    }
    getConfig() {
      return this.config;
    }
    async *stream(messages: readonly { role: string }[]) {
      let done = 0;
      for (const message of messages) if (message.role === 'assistant') done++;
      const step = done + 1;
      yield { type: 'modelMessageStartEvent', role: 'assistant' };
      if (step < steps) {
        yield { type: 'modelContentBlockStartEvent', start: { type: 'toolUseStart', name: 'echo', toolUseId: `call-${step}` } };
        yield {
          type: 'modelContentBlockDeltaEvent',
          delta: { type: 'toolUseInputDelta', input: JSON.stringify({ text: `step ${step}` }) },
        };
        yield { type: 'modelContentBlockStopEvent' };
        yield { type: 'modelMessageStopEvent', stopReason: 'toolUse' };
      } else {
        yield { type: 'modelContentBlockStartEvent' };
        yield { type: 'modelContentBlockDeltaEvent', delta: { type: 'textDelta', text: 'done' } };
        yield { type: 'modelContentBlockStopEvent' };
        yield { type: 'modelMessageStopEvent', stopReason: 'endTurn' };
      }
    }
  }

  class NoopHandler extends (InterventionHandler as Constructor) {
    readonly name: string;
    constructor(name: string) {
      super();
      this.name = name;
    }
    beforeInvocation() {
      return InterventionActions.proceed();
    }
    beforeModelCall() {
      return InterventionActions.proceed();
    }
    afterModelCall() {
      return InterventionActions.proceed();
    }
    beforeToolCall() {
      return InterventionActions.proceed();
    }
    afterToolCall() {
      return InterventionActions.proceed();
    }
  }

  let executed = 0;
  const echo = tool({
    name: 'echo',
    description: 'Echo the text back.',
    inputSchema: z.object({ text: z.string() }),
    callback: ({ text }: { text: string }) => {
      executed++;
      return text;
    },
  });
  const agent = new Agent({
    model: new ScriptedModel(),
    tools: [echo],
    printer: false,
    conversationManager: new NullConversationManager(),
    interventions: Array.from({ length: k }, (_, i) => new NoopHandler(`noop-${i}`)),
  });

  return {
    steps,
    async run() {
      agent.messages.length = 0;
      const before = executed;
      const result = await agent.invoke('Echo every step.');
      if (result.stopReason !== 'endTurn' || agent.messages.length !== 2 * steps || executed - before !== steps - 1) {
        throw new Error(`Strands run did not follow the script: ${agent.messages.length} messages, ${executed - before} tool calls`);
      }
    },
  };
}
