import { generateText } from 'ai';
import type { ApprovalLedger } from './approval-ledger.ts';
import type { CallOptions } from './call-options.ts';
import { chatResponseOf } from './chat-response-of.ts';
import { composeRunOptions, needsLoopControl } from './compose-run-options.ts';
import { attachReport, EMPTY_REPORT } from './interventions-report.ts';
import { needsRun } from './is-idle.ts';
import { Run } from './run.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';

/**
 * `interventions.generateText`: one run around one `generateText` call. A
 * failure raised where the SDK would have swallowed it (a hook inside a
 * tool) is what the caller gets; exactly one of `onChatDone` /
 * `onChatError` / `onChatAbort` fires. When the caller aborts, the call
 * ends then, even if a tool or hook ignores the signal.
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
  const run = new Run({ snapshot, input: options, approvalLedger });
  try {
    const result = await run.untilAborted(generateText(composeRunOptions(run, options) as never));
    if (run.failed !== undefined) throw run.failed.error;
    if (needsLoopControl(run, options)) run.patch.attachTo(result);
    await run.complete(chatResponseOf(result));
    return attachReport(result, run.report);
  } catch (error) {
    throw await run.end(error);
  }
}
