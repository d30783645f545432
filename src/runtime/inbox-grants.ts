import { userIdOf } from '../actions/user-id-of.ts';
import type { ApprovalState } from '../approvals/approval-state.ts';
import { InvalidOptionError } from '../errors/invalid-option-error.ts';
import type { ApprovalGrant, GrantOptions, InboxGrant } from '../inbox/approval-grant.ts';
import type { InboxRequest } from '../inbox/approval-inbox.ts';
import { redactData } from '../redaction/redact-data.ts';
import { GRANT_HANDLER } from '../tool-call/granted-call.ts';
import type { InboxDeps } from './inbox-deps.ts';

type RuntimeContext = Readonly<Record<string, unknown>>;

const MAX_USES = 1_000;
const MAX_TTL_MS = 30 * 24 * 60 * 60_000;

/**
 * Checks that an approval can become the grant asked for, before it is
 * admitted: never wider than the request (one person may approve it, its
 * asker and its approver are known people, no rule only the handler can
 * judge), for a bounded number of uses and time.
 */
export function checkGrant(request: InboxRequest, options: GrantOptions, person: RuntimeContext): void {
  const invalid = (message: string) => new InvalidOptionError({ owner: 'inbox.answer', option: 'grant', message });
  const { uses, ttlMs, conversation } = options;
  if (!(Number.isInteger(uses) && uses >= 1 && uses <= MAX_USES))
    throw invalid(`grant.uses must be an integer from 1 to ${MAX_USES}, received ${String(uses)}.`);
  if (!(typeof ttlMs === 'number' && ttlMs > 0 && ttlMs <= MAX_TTL_MS))
    throw invalid(`grant.ttlMs must be a positive number of ms, at most 30 days, received ${String(ttlMs)}.`);
  if (conversation !== undefined && typeof conversation !== 'boolean') throw invalid('grant.conversation must be a boolean.');
  if (request.quorum > 1)
    throw invalid(`request ${request.id} needs ${request.quorum} approvals: one person's grant cannot stand for them.`);
  if (request.approvers.some((rule) => rule.allow === true))
    throw invalid(
      `who may answer request ${request.id} is decided by the app's own test (allow), which only the handler can run: it cannot become a grant.`,
    );
  if (request.askedBy === undefined)
    throw invalid(`request ${request.id} was asked by nobody known (no runtimeContext.userId): a grant is for a person.`);
  if (userIdOf(person) === undefined) throw invalid('the person granting needs a user id (runtimeContext.userId).');
  if (conversation !== false && request.conversationId === undefined)
    throw invalid(
      `request ${request.id} belongs to no conversation (runtimeContext.sessionId): give conversation: false for every conversation of the asker.`,
    );
}

/** Grants what an admitted approval allowed (the approved arguments, exactly), and records it. */
export async function grantApproval(
  deps: InboxDeps,
  state: ApprovalState,
  {
    request,
    options,
    person,
    input,
    at,
  }: { request: InboxRequest; options: GrantOptions; person: RuntimeContext; input: unknown; at: number },
): Promise<ApprovalGrant> {
  const forPeople = deps.snapshot().handlers.forPeople;
  const grantedBy = userIdOf(person) ?? '';
  const grant: InboxGrant = {
    id: crypto.randomUUID(),
    approvalId: request.id,
    toolName: request.toolName,
    input: forPeople === undefined ? input : redactData(input, forPeople),
    callInput: input,
    grantedTo: request.askedBy ?? '',
    ...(options.conversation === false || request.conversationId === undefined ? {} : { conversationId: request.conversationId }),
    grantedBy,
    grantedByContext: { ...person },
    grantedAt: at,
    expiresAt: at + options.ttlMs,
    uses: options.uses,
    approvers: request.approvers,
  };
  await deps.inbox.putGrant(grant);
  const where = grant.conversationId === undefined ? 'in every conversation' : 'in this conversation';
  await state.record(
    {
      handler: GRANT_HANDLER,
      lifecycle: 'beforeToolCall',
      action: 'proceed',
      reason: `${grantedBy} granted ${grant.grantedTo} ${grant.uses} later call${grant.uses === 1 ? '' : 's'} of ${grant.toolName} with exactly these arguments, ${where}, until ${new Date(grant.expiresAt).toISOString()} (grant ${grant.id}).`,
      enforced: true,
      mode: 'enforce',
      durationMs: 0,
      toolCallId: request.toolCallId,
      toolName: request.toolName,
      approval: { status: 'approved', askedBy: grant.grantedTo, answeredBy: grantedBy },
    },
    input,
  );
  return viewOf(deps, grant);
}

/** The grants given to a person or by them, newest first. */
export async function grants(deps: InboxDeps, runtimeContext: RuntimeContext | undefined): Promise<readonly ApprovalGrant[]> {
  const mine = await grantsOfPerson(deps, runtimeContext, 'inbox.grants');
  return Promise.all(mine.reverse().map((grant) => viewOf(deps, grant)));
}

/** Revokes a grant given to or by the person; `undefined`: none of theirs. */
export async function revoke(deps: InboxDeps, id: string, runtimeContext: RuntimeContext | undefined): Promise<ApprovalGrant | undefined> {
  const grant = (await grantsOfPerson(deps, runtimeContext, 'inbox.revoke')).find((each) => each.id === id);
  if (grant === undefined) return undefined;
  await deps.inbox.revokeGrant(id, userIdOf(runtimeContext) ?? '');
  return viewOf(deps, grant);
}

async function grantsOfPerson(deps: InboxDeps, runtimeContext: RuntimeContext | undefined, owner: string): Promise<InboxGrant[]> {
  const userId = userIdOf(runtimeContext);
  if (userId === undefined) {
    throw new InvalidOptionError({ owner, option: 'runtimeContext', message: 'grants are a person’s: runtimeContext needs a userId.' });
  }
  const [to, by] = await Promise.all([deps.inbox.grantsOf(`to:${userId}`), deps.inbox.grantsOf(`by:${userId}`)]);
  const seen = new Set<string>();
  return [...to, ...by].filter((grant) => !seen.has(grant.id) && seen.add(grant.id)).sort((a, b) => a.grantedAt - b.grantedAt);
}

async function viewOf(deps: InboxDeps, grant: InboxGrant): Promise<ApprovalGrant> {
  const { callInput: _input, grantedByContext: _context, approvers: _approvers, ...shown } = grant;
  const [used, revokedBy, now] = await Promise.all([
    deps.inbox.usesOf(grant.id),
    deps.inbox.revokedBy(grant.id),
    deps.ledger?.now?.() ?? Date.now(),
  ]);
  const status = revokedBy !== undefined ? 'revoked' : used >= grant.uses ? 'used-up' : grant.expiresAt <= now ? 'expired' : 'active';
  return { ...shown, used, status, ...(revokedBy === undefined ? {} : { revokedBy }) };
}
