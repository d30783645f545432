import { createAgentUIStream, type TextStreamPart, type ToolSet, type UIMessage } from 'ai';
import type { Run } from '../run/run.ts';
import { decisionConversion } from '../ui/inject-decisions.ts';
import { asyncIterable } from '../util/async-iterable.ts';

type AgentUIStreamOptions = Parameters<typeof createAgentUIStream>[0];
type AgentStreamResult = Awaited<ReturnType<AgentUIStreamOptions['agent']['stream']>>;

/**
 * The AI SDK's `createAgentUIStream` with the decisions of the agent's run
 * as `data-intervention` parts, as `interventions.streamText`'s UI stream
 * has them: the SDK's own function runs, with the agent's stream given the
 * decision parts once the run (started by the agent's `prepareCall`, see
 * `agentSettings`) is known. An agent whose settings are not the runtime's,
 * or whose run decides nothing, streams exactly what the SDK streams.
 */
export async function agentUIStream(
  options: AgentUIStreamOptions,
  runOfInput: (input: unknown) => Run | undefined,
): ReturnType<typeof createAgentUIStream> {
  const { agent, messageMetadata, onEnd, onFinish, onUIMessageStepEnd } = options;
  const conversion = decisionConversion<UIMessage>(messageMetadata);
  // the agent as it is, but for its stream, which carries the run's decisions
  const decided = Object.create(agent, {
    stream: {
      value: async (call: Parameters<typeof agent.stream>[0]): Promise<AgentStreamResult> => {
        const result = await agent.stream(call);
        const run = runOfInput(call.prompt ?? call.messages);
        if (run === undefined) return result;
        const stream = conversion.inject(run, result.stream as ReadableStream<TextStreamPart<ToolSet>>, agent.tools);
        return Object.create(result, { stream: { value: stream } }) as AgentStreamResult;
      },
    },
  }) as typeof agent;
  const stream = await createAgentUIStream({
    ...options,
    agent: decided,
    messageMetadata: conversion.messageMetadata,
    onEnd: conversion.withDataParts(onEnd ?? onFinish),
    onFinish: undefined,
    onUIMessageStepEnd: conversion.withDataParts(onUIMessageStepEnd),
  });
  return asyncIterable(stream.pipeThrough(conversion.toData));
}
