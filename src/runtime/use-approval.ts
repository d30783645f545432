import type { Run } from './run.ts';

/**
 * Uses up the approval of a resumed call before it runs. A second use (a
 * replayed or duplicated resume request) denies the call, and is recorded.
 */
export async function useApproval(
  run: Run,
  toolCallId: string,
): Promise<{ readonly type: 'denied'; readonly reason: string } | undefined> {
  const approved = run.resume.approved.get(toolCallId);
  if (approved === undefined || run.approvalLedger === undefined) return undefined;
  if ((await run.approvalLedger.claim(approved.approvalId)).type === 'claimed') return undefined;
  const reason = 'This approval was already used; the call is not executed again.';
  await run.record({
    handler: 'approval-ledger',
    lifecycle: 'beforeToolCall',
    action: 'deny',
    reason,
    enforced: true,
    mode: 'enforce',
    durationMs: 0,
    toolCallId: approved.toolCallId,
    toolName: approved.toolName,
  });
  return { type: 'denied', reason: run.snapshot.wording.deniedToolCall({ toolCall: approved, reason, handler: 'approval-ledger' }) };
}
