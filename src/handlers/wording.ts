import type { ToolCallInfo } from '../actions/intervention-events.ts';
import { knownOptions } from '../util/known-options.ts';
import type { GuideFeedback } from './verdict.ts';

/**
 * The texts the model reads when a decision changes what it asked for.
 * Override any of them with `createInterventions({ wording })`.
 *
 * @example
 * ```ts
 * createInterventions({
 *   handlers,
 *   wording: { deniedToolCall: ({ toolCall, reason }) => `DENIED ${toolCall.toolName}: ${reason}` },
 * });
 * ```
 */
export interface Wording {
  /** The tool result of a denied call. */
  deniedToolCall(details: { readonly toolCall: ToolCallInfo; readonly reason: string; readonly handler: string }): string;
  /** The tool result of a guided call (not executed, feedback to revise it). */
  guidedToolCall(details: { readonly toolCall: ToolCallInfo; readonly guidance: readonly GuideFeedback[] }): string;
  /**
   * The tool result of a call a person refused with a typed answer
   * (`approvalAnswer`), with their reason; a plain refusal reaches the model
   * as the SDK sends it (their bare reason), unless the person was shown
   * guides' feedback with the request (`guidance`: a confirm outranked them):
   * then the model reads both.
   */
  rejectedCall(details: {
    readonly toolCall: ToolCallInfo;
    readonly reason: string | undefined;
    readonly guidance?: readonly GuideFeedback[] | undefined;
  }): string;
  /** The user message a `beforeModelCall` / `afterModelCall` / `beforeInvocation` guide injects. */
  modelGuidance(details: { readonly guidance: readonly GuideFeedback[] }): string;
}

/**
 * Each guide on its own line, tagged with its handler: `[email-validator] …`.
 * The default wording uses it; call it from your own {@link Wording}.
 *
 * @example
 * ```ts
 * createInterventions({
 *   handlers,
 *   wording: { modelGuidance: ({ guidance }) => `Please revise your answer:\n${formatGuidance(guidance)}` },
 * });
 * ```
 */
export function formatGuidance(guidance: readonly GuideFeedback[]): string {
  return guidance.map(({ handler, feedback }) => `[${handler}] ${feedback}`).join('\n');
}

/** The keys of {@link Wording}: `wording` options are checked against them. */
export const WORDING_KEYS = knownOptions<Wording>({ deniedToolCall: true, guidedToolCall: true, rejectedCall: true, modelGuidance: true });

/**
 * The default texts. They say plainly that the tool was not executed, why,
 * and whether to retry, because models treat a bare error as transient and
 * retry it. Call them from your own wording to add to them.
 *
 * @example
 * ```ts
 * createInterventions({
 *   handlers,
 *   wording: {
 *     deniedToolCall: (details) => `${defaultWording.deniedToolCall(details)}\nAsk an admin if this is needed.`,
 *   },
 * });
 * ```
 */
export const defaultWording: Wording = {
  deniedToolCall: ({ toolCall, reason }) =>
    `The call to "${toolCall.toolName}" was blocked and was not executed. Reason: ${reason}\n` +
    'Do not retry this call as it is; continue without it, or explain to the user why it cannot be done.',
  guidedToolCall: ({ toolCall, guidance }) =>
    `The call to "${toolCall.toolName}" was not executed. Feedback:\n${formatGuidance(guidance)}\n` +
    'Revise the call according to this feedback and try again.',
  rejectedCall: ({ toolCall, reason, guidance }) =>
    `The user did not approve the call to "${toolCall.toolName}", so it was not executed.` +
    (reason ? ` Their reason: ${reason}` : '') +
    (guidance === undefined || guidance.length === 0 ? '' : `\nFeedback the user saw with the request:\n${formatGuidance(guidance)}`) +
    '\nDo not retry it unless the user asks; continue without it.',
  modelGuidance: ({ guidance }) => formatGuidance(guidance),
};
