import { generateText } from 'ai';
import { explainApprovalError, signsWithGeneratedSecret } from '../approvals/approval-secret.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import { attachReport, EMPTY_REPORT } from '../run/interventions-report.ts';
import { Run } from '../run/run.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import { settleAfterAbort } from '../util/settle-after-abort.ts';
import type { CallOptions } from './call-options.ts';
import { chatResponseOf } from './chat-response-of.ts';
import { composeRunOptions, needsLoopControl } from './compose-run-options.ts';
import { needsRun } from './is-idle.ts';

/** How long an aborted call may take to end on its own before it ends with the abort. */
const ABORT_GRACE_MS = 1_000;

/**
 * `interventions.generateText`: one run around one `generateText` call. A
 * failure raised where the SDK would have swallowed it (a hook inside a
 * tool) is what the caller gets; exactly one of `onChatDone` /
 * `onChatError` / `onChatAbort` fires. When the caller aborts, the call
 * ends as the SDK ends it, or a second later if a tool or hook ignores the
 * signal (the SDK alone would wait for it forever).
 */
export async function runGenerateText({
  options,
  snapshot,
  approvalLedger,
}: {
  options: CallOptions;
  snapshot: RuntimeSnapshot;
  approvalLedger: ApprovalLedger | undefined;
}) {
  if (!needsRun(snapshot, options)) return attachReport(await generateText(options as never), EMPTY_REPORT);
  const run = new Run({ snapshot, input: options, approvalLedger, streaming: false });
  try {
    const result = await settleAfterAbort(generateText(composeRunOptions(run, options) as never), run.abortSignal, ABORT_GRACE_MS);
    if (run.failed !== undefined) throw run.failed.error;
    if (needsLoopControl(run, options)) run.patch.attachTo(result);
    await run.complete(() => chatResponseOf(result));
    return attachReport(result, run.report);
  } catch (error) {
    throw await run.end(signsWithGeneratedSecret(snapshot, options) ? explainApprovalError(error) : error);
  }
}
