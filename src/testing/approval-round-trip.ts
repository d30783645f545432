import type { Context } from '@ai-sdk/provider-utils';
import {
  type GenerateTextResult,
  type Instructions,
  isStepCount,
  type LanguageModel,
  type ModelMessage,
  type OutputInterface,
  type StopCondition,
  type ToolApprovalRequestOutput,
  type ToolSet,
} from 'ai';
import type { Interventions, InterventionsResult } from '../runtime/interventions.ts';
import type { Awaitable } from '../util/awaitable.ts';

/**
 * Options of {@link approvalRoundTrip}.
 *
 * @example
 * ```ts
 * const options: ApprovalRoundTripOptions<typeof tools> = {
 *   interventions, model, tools,
 *   prompt: 'Delete /tmp/report.txt',
 *   approve: ({ toolCall }) => toolCall.toolName !== 'drop_database',
 *   reason: 'reviewed by the on-call engineer',
 * };
 * ```
 */
export interface ApprovalRoundTripOptions<TOOLS extends ToolSet> {
  readonly interventions: Interventions;
  readonly model: LanguageModel;
  readonly tools: TOOLS;
  /** The user's message (or give `messages`). */
  readonly prompt?: string;
  /** The conversation so far, instead of `prompt`. */
  readonly messages?: ModelMessage[];
  readonly instructions?: Instructions;
  /** The same for both calls, as a server would restore it. */
  readonly runtimeContext?: Context;
  /** Default `isStepCount(5)`, for both calls. */
  readonly stopWhen?: StopCondition<TOOLS>;
  /** The human's answer: for every request, or per request. */
  readonly approve: boolean | ((request: ToolApprovalRequestOutput<TOOLS>) => Awaitable<boolean>);
  /** The reason the human gives with the answers. */
  readonly reason?: string;
}

/**
 * What {@link approvalRoundTrip} did.
 *
 * @example
 * ```ts
 * const { requests, second }: ApprovalRoundTripResult<typeof tools> = await approvalRoundTrip({
 *   interventions, model, tools, prompt: 'Delete /tmp/report.txt', approve: true,
 * });
 * console.log(requests.map((request) => request.reason), second.text);
 * ```
 */
export interface ApprovalRoundTripResult<TOOLS extends ToolSet> {
  /** The call that ended with the approval requests. */
  readonly first: GenerateTextResult<TOOLS, Context, OutputInterface<string, string>> & InterventionsResult;
  /** The resumed call, after the answers. */
  readonly second: GenerateTextResult<TOOLS, Context, OutputInterface<string, string>> & InterventionsResult;
  /** The approval requests a human was asked (automatic ones left out), in order. */
  readonly requests: ReadonlyArray<ToolApprovalRequestOutput<TOOLS>>;
  /** The messages the resumed call was sent: the input, the first call's messages and the answers. */
  readonly messages: readonly ModelMessage[];
}

/**
 * A human-in-the-loop round trip, as a chat server does it: calls
 * `interventions.generateText` until it stops at approval requests, answers
 * every request (`approve`), and resumes with the history plus a tool message
 * of `tool-approval-response`s. Throws when the first call asks nothing.
 *
 * @example
 * ```ts
 * const model = scriptedModel(toolCall('call-1', 'delete_file', { path: '/tmp/report.txt' }), text('Deleted.'));
 * const interventions = createInterventions({ handlers: [new DeleteApproval()] });
 * const { requests, second } = await approvalRoundTrip({
 *   interventions, model, tools, prompt: 'Delete the report', approve: true,
 * });
 * expect(requests[0]?.reason).toBe('Approve deleting "/tmp/report.txt"?');
 * expect(second.text).toBe('Deleted.');
 * ```
 */
export async function approvalRoundTrip<TOOLS extends ToolSet>({
  interventions,
  model,
  tools,
  prompt,
  messages,
  instructions,
  runtimeContext,
  stopWhen = isStepCount(5),
  approve,
  reason,
}: ApprovalRoundTripOptions<TOOLS>): Promise<ApprovalRoundTripResult<TOOLS>> {
  const input: ModelMessage[] = messages ?? [{ role: 'user', content: prompt ?? 'Go ahead.' }];
  const common = {
    model,
    tools,
    stopWhen,
    ...(instructions === undefined ? {} : { instructions }),
    ...(runtimeContext === undefined ? {} : { runtimeContext }),
  };

  const first = await interventions.generateText({ ...common, messages: input });
  const requests = first.content.filter(
    (part): part is ToolApprovalRequestOutput<TOOLS> => part.type === 'tool-approval-request' && part.isAutomatic !== true,
  );
  if (requests.length === 0) {
    throw new Error(
      `approvalRoundTrip: the first call asked for no approval (finish reason "${first.finishReason}", text ${JSON.stringify(first.text)}).`,
    );
  }

  const answers = [];
  for (const request of requests) {
    const approved = typeof approve === 'function' ? await approve(request) : approve;
    answers.push({
      type: 'tool-approval-response' as const,
      approvalId: request.approvalId,
      approved,
      ...(reason === undefined ? {} : { reason }),
    });
  }
  const resumed: ModelMessage[] = [...input, ...first.responseMessages, { role: 'tool', content: answers }];
  const second = await interventions.generateText({ ...common, messages: resumed });
  return { first, second, requests, messages: resumed };
}
