import { generateText } from 'ai';
import type { ApprovalLedger } from './approval-ledger.ts';
import { attachReport, EMPTY_REPORT } from './attach-report.ts';
import { chatResponseOf, composeRunOptions, needsLoopControl, type CallOptions } from './compose-run-options.ts';
import { InterventionsRun } from './interventions-run.ts';
import { needsRun } from './is-idle.ts';
import { keepInjections } from './keep-injections.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';

/**
 * `interventions.generateText`: one run around one `generateText` call. A
 * failure raised where the SDK would have swallowed it (a hook inside a
 * tool) is what the caller gets; exactly one of `onChatDone` /
 * `onChatError` / `onChatAbort` fires.
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
  const run = new InterventionsRun({ snapshot, input: options, approvalLedger });
  try {
    const result = await generateText(composeRunOptions(run, options) as never);
    if (run.failed !== undefined) throw run.failed.error;
    if (needsLoopControl(run, options)) keepInjections(result, run);
    await run.complete(chatResponseOf(result));
    return attachReport(result, run.report);
  } catch (error) {
    throw await run.end(error);
  }
}
