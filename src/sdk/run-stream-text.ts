import { streamText } from 'ai';
import { explainApprovalErrors, signsWithGeneratedSecret } from '../approvals/approval-secret.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import { asArray } from '../loop/continue-on-failure.ts';
import { attachReport, EMPTY_REPORT } from '../run/interventions-report.ts';
import { Run } from '../run/run.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import { attachDecisionStream, registerDecisionSource } from '../ui/to-interventions-ui-message-stream.ts';
import { ignoreErrors } from '../util/ignore-errors.ts';
import type { CallOptions } from './call-options.ts';
import { chatResponseOf } from './chat-response-of.ts';
import { composeRunOptions, needsLoopControl } from './compose-run-options.ts';
import { needsRun } from './is-idle.ts';

type Callback = ((event: never) => unknown) | undefined;

/**
 * `interventions.streamText`: one run around one `streamText` call, which
 * returns synchronously. The run ends through the stream's own callbacks
 * (the caller's run first), or where the run throws a failure the SDK had
 * swallowed (then the stream ends with that error).
 */
export function runStreamText({
  options,
  snapshot,
  approvalLedger,
}: {
  options: CallOptions;
  snapshot: RuntimeSnapshot;
  approvalLedger: ApprovalLedger | undefined;
}) {
  if (!needsRun(snapshot, options)) return attachReport(streamText(options as never), EMPTY_REPORT);
  const run = new Run({ snapshot, input: options, approvalLedger });
  const composed = composeRunOptions(run, options, { streaming: true });
  // resumed approvals the runtime's own secret cannot verify: the error says why, and what to set
  if ((run.approvals?.resume.approved.size ?? 0) > 0 && signsWithGeneratedSecret(snapshot, options)) {
    const theirs = composed.experimental_transform;
    composed.experimental_transform = theirs === undefined ? explainApprovalErrors : [explainApprovalErrors, ...asArray(theirs)];
  }
  const onEnd = (options.onEnd ?? options.onFinish) as Callback;
  const onError = options.onError as Callback;
  const onAbort = options.onAbort as Callback;

  composed.onEnd = async (event: Parameters<typeof chatResponseOf>[0]) => {
    try {
      await (onEnd as ((event: unknown) => unknown) | undefined)?.(event);
    } catch {
      // the SDK ignores callback errors; so do we
    }
    try {
      await run.complete(() => ({
        ...chatResponseOf(event),
        responseMessages: run.patch.applyTo(event.responseMessages, event.steps),
      }));
    } catch (error) {
      await run.end(error);
    }
  };
  delete composed.onFinish;
  composed.onError = async (event: { error: unknown }) => {
    // the SDK's default is to log the error; keep it when the caller set none
    const handled = onError === undefined ? console.error(event.error) : await (onError as (event: unknown) => unknown)(event);
    await run.end(event.error);
    return handled;
  };
  composed.onAbort = async (event: { reason?: unknown }) => {
    await ignoreErrors(() => (onAbort as ((event: unknown) => unknown) | undefined)?.(event));
    await run.aborted(event.reason);
  };
  const result = streamText(composed as never);
  if (needsLoopControl(run, options)) run.patch.attachTo(result);
  // the UI message stream carries the run's decisions (data-intervention parts)
  registerDecisionSource(run.report, run);
  if (run.plan.decides || (run.approvals?.resume.answers.length ?? 0) > 0) attachDecisionStream(result, run.report);
  return attachReport(result, run.report);
}
