import { ANYONE_ONCE, hasPredicate } from '../actions/confirm-terms.ts';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import { userIdOf } from '../actions/user-id-of.ts';
import { mayAnswer } from '../approvals/may-answer.ts';
import { stableJson } from '../data/stable-json.ts';
import type { Run } from '../run/run.ts';
import type { ToolCallDecision } from '../run/tool-call-decision.ts';

/** The handler name of the records of calls a grant allowed. */
export const GRANT_HANDLER = 'approval-grant';

/**
 * A confirm answered by a grant (see `ApprovalGrant`): one of the asker's
 * grants for this tool and exactly these arguments, in this conversation
 * when it says so, not expired, not revoked, with a use left (taken
 * atomically), from someone the confirm's rules still admit as an approver
 * (a quorum, or a rule only the handler's predicate can judge, is never
 * answered by one person's grant). The call then proceeds with a record
 * naming the grant; `undefined`: no grant answers it, and the person is asked.
 */
export async function grantedCall(
  run: Run,
  call: ToolCallInfo,
  decision: Extract<ToolCallDecision, { readonly type: 'confirm' }>,
): Promise<ToolCallDecision | undefined> {
  const inbox = run.snapshot.approvalInbox;
  const asker = run.runtimeContext;
  const userId = userIdOf(asker);
  const terms = decision.terms ?? ANYONE_ONCE;
  if (inbox === undefined || userId === undefined || terms.quorum > 1 || hasPredicate(terms)) return undefined;
  const input = decision.input === undefined ? call.input : decision.input.value;
  const grants = (await inbox.grantsOf(`to:${userId}`)).filter((grant) => grant.toolName === call.toolName);
  if (grants.length === 0) return undefined;
  const arguments_ = jsonOf(input);
  const now = run.approvalLedger?.now === undefined ? Date.now() : await run.approvalLedger.now();
  const { sessionId } = asker;
  const conversation = typeof sessionId === 'string' || typeof sessionId === 'number' ? String(sessionId) : undefined;
  for (const grant of grants) {
    if (grant.expiresAt <= now || (grant.conversationId !== undefined && grant.conversationId !== conversation)) continue;
    if (arguments_ === undefined || jsonOf(grant.callInput) !== arguments_) continue;
    if (!mayAnswer(terms, grant.grantedByContext, asker).admitted) continue;
    if ((await inbox.revokedBy(grant.id)) !== undefined) continue;
    const used = await inbox.takeGrantUse(grant.id, grant.uses);
    if (used === undefined) continue;
    const until = new Date(grant.expiresAt).toISOString();
    await run.record(
      {
        handler: GRANT_HANDLER,
        lifecycle: 'beforeToolCall',
        action: 'proceed',
        reason: `Allowed without asking by the grant ${grant.grantedBy} gave ${userId} for exactly these arguments (use ${used} of ${grant.uses}, until ${until}; grant ${grant.id}).`,
        display: `Allowed by ${grant.grantedBy}'s grant (${grant.uses - used} of ${grant.uses} uses left).`,
        enforced: true,
        mode: 'enforce',
        durationMs: 0,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        approval: { status: 'approved', askedBy: userId, answeredBy: grant.grantedBy, approvedBy: [grant.grantedBy] },
      },
      input,
    );
    return decision.input === undefined ? { type: 'proceed' } : { type: 'transform', input, answered: undefined };
  }
  return undefined;
}

function jsonOf(value: unknown): string | undefined {
  try {
    return stableJson(value);
  } catch {
    return undefined;
  }
}
