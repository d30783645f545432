/**
 * Plays one guard-coverage scenario through a wrapper: the provider's turns,
 * then (when handlers asked) the person's answers as a resume, then that
 * resume once more (a replay). What ran is recorded by the tools themselves.
 */
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import {
  dynamicTool,
  generateText,
  isStepCount,
  type ModelMessage,
  streamText,
  type ToolCallRepairFunction,
  ToolLoopAgent,
  type ToolSet,
  tool,
} from 'ai';
import { z } from 'zod';
import {
  approvalAnswer,
  createInterventions,
  type DecisionRecord,
  defineHandler,
  guardTools,
  InterventionActions,
  type InterventionHandlerLike,
} from '../../src/index.ts';
import { type ApprovalRequestPart, approvalRequests } from '../helpers/approval-requests.ts';
import { scriptedModel, step, text } from '../helpers/scripted-model.ts';
import { type CallSpec, type HandlerSpec, type Answer as PersonAnswer, patternOf, type Scenario, TOOLS } from './guard-oracle.ts';

export const WRAPPERS = ['generateText', 'streamText', 'agent', 'guardTools', 'guardTools-stream'] as const;

/** Whether a wrapper is tools guarded for the plain SDK (`guardTools` with `generateText` or `streamText`). */
export const isPlain = (wrapper: Wrapper) => wrapper === 'guardTools' || wrapper === 'guardTools-stream';
export type Wrapper = (typeof WRAPPERS)[number];

/** One execution, as the tool saw it. */
export interface Ran {
  readonly tool: string;
  readonly tag: string;
  /** 0: the provider's turns; 1: the resume; 2: the replay. */
  readonly phase: number;
}

/** What one request (the turns, the resume or the replay) came to. */
export interface Phase {
  /** Every request the model was sent. */
  readonly prompts: readonly LanguageModelV4CallOptions['prompt'][];
  readonly requests: readonly ApprovalRequestPart[];
  readonly responseMessages: readonly ModelMessage[];
  readonly decisions: readonly DecisionRecord[];
  /** What the run failed with, if it did. */
  readonly error: unknown;
}

export interface Played {
  readonly ran: readonly Ran[];
  readonly phases: readonly Phase[];
}

function handlerOf(spec: HandlerSpec, index: number): InterventionHandlerLike {
  const tools = patternOf(spec.scope);
  return defineHandler({
    name: `h${index}-${spec.behaviour}`,
    mode: spec.mode,
    onError: spec.onError,
    ...(spec.behaviour === 'hang' ? { timeoutMs: 5 } : {}),
    ...(tools === undefined ? {} : { tools: [tools] }),
    beforeToolCall: ({ toolCall }) => {
      switch (spec.behaviour) {
        case 'deny':
          return InterventionActions.deny(`no ${toolCall.toolName}`);
        case 'guide':
          return InterventionActions.guide(`try again, ${toolCall.toolName}`);
        case 'confirm':
          return InterventionActions.confirm(`run ${toolCall.toolName}?`);
        case 'transform':
          return InterventionActions.transform((draft) => {
            if (!('toolCall' in draft)) return;
            const input = draft.toolCall.input as { tag?: unknown };
            draft.toolCall.input = { tag: `${String(input.tag)}+t` };
          });
        case 'proceed':
          return InterventionActions.proceed();
        case 'throw':
          throw new Error(`h${index} failed`);
        case 'hang':
          return new Promise<never>(() => {});
      }
    },
  });
}

function modelOf(turns: readonly (readonly CallSpec[])[]) {
  return scriptedModel(
    ...turns.map((calls) =>
      step(
        ...calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: call.tool,
          input: call.json ? JSON.stringify({ tag: call.tag }) : `{"tag": ${call.tag}`,
        })),
      ),
    ),
    step(text('done')),
  );
}

function answerOf(request: ApprovalRequestPart, answer: PersonAnswer): ReturnType<typeof approvalAnswer> {
  switch (answer) {
    case 'approve':
      return approvalAnswer({ id: request.approvalId, approved: true });
    case 'refuse':
      return approvalAnswer({ id: request.approvalId, approved: false, reason: 'no' });
    case 'edit':
      return approvalAnswer({ id: request.approvalId, approved: true, input: { tag: 'e' } });
  }
}

/** The tool message answering `requests`, the n-th with `answers[n]`. */
function answersMessage(requests: readonly ApprovalRequestPart[], answers: readonly PersonAnswer[]): ModelMessage {
  return {
    role: 'tool',
    content: requests.map((request, index) => {
      const { approved, reason } = answerOf(request, answers[index] ?? 'refuse');
      return { type: 'tool-approval-response', approvalId: request.approvalId, approved, ...(reason === undefined ? {} : { reason }) };
    }),
  };
}

export async function play(wrapper: Wrapper, scenario: Scenario): Promise<Played> {
  const ran: Ran[] = [];
  let phase = 0;
  const record = (name: string, tag: string) => {
    ran.push({ tool: name, tag, phase });
    return `${name} ran with ${tag}`;
  };
  const inputSchema = z.object({ tag: z.string() });
  const tools: ToolSet = Object.fromEntries(
    TOOLS.map((name) => [
      name,
      name === 'dyn'
        ? dynamicTool({ inputSchema, execute: async (input) => record(name, (input as { tag: string }).tag) })
        : tool({ inputSchema, execute: async ({ tag }) => record(name, tag) }),
    ]),
  );
  const decisions: DecisionRecord[] = [];
  const options = {
    handlers: scenario.handlers.map(handlerOf),
    handlerTimeoutMs: 5_000,
    hooks: { onDecision: ({ record: decision }: { record: DecisionRecord }) => void decisions.push(decision) },
  };
  const interventions = createInterventions(options);
  const guarded = isPlain(wrapper) ? guardTools(tools, options) : tools;
  const repairToolCall: ToolCallRepairFunction<ToolSet> | undefined = scenario.repair
    ? async ({ toolCall }) => ({
        ...toolCall,
        toolName: (TOOLS as readonly string[]).includes(toolCall.toolName) ? toolCall.toolName : 'beta',
        input: /^\{"tag":"[a-z]"\}$/.test(toolCall.input) ? toolCall.input : '{"tag":"r"}',
      })
    : undefined;

  const once = async (model: ReturnType<typeof scriptedModel>, messages: ModelMessage[], steps: number): Promise<Phase> => {
    const from = decisions.length;
    const call = {
      model,
      tools: guarded,
      stopWhen: isStepCount(steps),
      messages,
      ...(repairToolCall === undefined ? {} : { repairToolCall }),
    };
    let content: ReadonlyArray<{ readonly type: string }> = [];
    let responseMessages: readonly ModelMessage[] = [];
    let error: unknown;
    try {
      if (wrapper === 'generateText' || wrapper === 'guardTools') {
        const result = await (wrapper === 'guardTools' ? generateText(call) : interventions.generateText(call));
        ({ content, responseMessages } = result);
      } else if (wrapper === 'streamText' || wrapper === 'guardTools-stream') {
        const streaming = { ...call, onError: () => {} };
        const result = wrapper === 'streamText' ? interventions.streamText(streaming) : streamText(streaming);
        for await (const part of result.fullStream) if (part.type === 'error') error ??= part.error;
        content = await result.content;
        responseMessages = await result.responseMessages;
      } else {
        const { model: agentModel, tools: agentTools, stopWhen, ...rest } = call;
        const agent = new ToolLoopAgent(interventions.agentSettings({ model: agentModel, tools: agentTools, stopWhen, ...rest }));
        ({ content, responseMessages } = await agent.generate({ messages }));
      }
    } catch (thrown) {
      error = thrown;
    }
    return {
      prompts: model.calls.map((request) => request.prompt),
      requests: approvalRequests(content),
      responseMessages,
      decisions: decisions.slice(from),
      error,
    };
  };

  const history: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const turns = scenario.turns.length;
  const first = await once(modelOf(scenario.turns), history, turns + 1);
  const phases = [first];
  if (first.requests.length === 0 || first.error !== undefined) return { ran, phases };
  // the provider goes on where it stopped: the turns it had not sent yet
  const sent = first.prompts.length;
  const rest = scenario.turns.slice(sent);
  const resumed: ModelMessage[] = [...history, ...first.responseMessages];
  phase = 1;
  phases.push(await once(modelOf(rest), [...resumed, answersMessage(first.requests, scenario.answers)], rest.length + 1));
  if (scenario.replay !== undefined) {
    phase = 2;
    phases.push(await once(modelOf(rest), [...resumed, answersMessage(first.requests, scenario.replay)], rest.length + 1));
  }
  return { ran, phases };
}
