/**
 * `ai-interventions/testing`: a small kit for testing handlers and hooks
 * through the real runtime, without a provider. Test-runner agnostic (no
 * vitest import); it uses `ai/test`'s `MockLanguageModelV4`.
 *
 * @example
 * ```ts
 * import { toolPolicy } from 'ai-interventions';
 * import { runHandler } from 'ai-interventions/testing';
 *
 * const { action, record } = await runHandler(toolPolicy({ rules: [{ deny: 'delete_file' }], default: 'allow' }), {
 *   lifecycle: 'beforeToolCall',
 *   toolCall: { toolName: 'delete_file', input: { path: '/tmp/x' } },
 * });
 * ```
 *
 * @module ai-interventions/testing
 */

export {
  type ApprovalRoundTripOptions,
  type ApprovalRoundTripResult,
  approvalRoundTrip,
} from './approval-round-trip.ts';
// time
export { createFakeClock, type FakeClock } from './create-fake-clock.ts';
// running handlers and approvals
export { runHandler } from './run-handler.ts';
export type { RunHandlerBaseOptions, RunHandlerOptions, RunHandlerResult, RunHandlerToolCall } from './run-handler-options.ts';
// the scripted model and its builders
export { type ScriptedModel, type ScriptedTurn, scriptedModel } from './scripted-model.ts';
export { step } from './step.ts';
export { text } from './text.ts';
export { toolCall } from './tool-call.ts';
