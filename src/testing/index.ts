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
 */

// the scripted model and its builders
export { scriptedModel, type ScriptedModel, type ScriptedTurn } from './scripted-model.ts';
export { text } from './text.ts';
export { toolCall } from './tool-call.ts';
export { step } from './step.ts';

// running handlers and approvals
export { runHandler } from './run-handler.ts';
export type { RunHandlerBaseOptions, RunHandlerOptions, RunHandlerResult, RunHandlerToolCall } from './run-handler-options.ts';
export {
  approvalRoundTrip,
  type ApprovalRoundTripOptions,
  type ApprovalRoundTripResult,
} from './approval-round-trip.ts';

// time
export { createFakeClock, type FakeClock } from './create-fake-clock.ts';
