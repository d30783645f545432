import type { PendingApproval } from './pending-approval.ts';

/**
 * What the app is told about a request for approval, to post a card to a
 * chat tool, an email or a webhook: `'created'` (asked: with
 * `answerToken`), `'answered'` (an approval or refusal was admitted; under a
 * quorum, each approval counted), `'expired'` (found unanswered past its
 * expiry) and `'withdrawn'` (by the person who asked, or a new message in
 * its conversation). `summary` says it in one sentence.
 *
 * `answerToken(person)` signs a token for that request and that person
 * (their trusted runtime context, as your session would give it), expiring
 * with the request: `interventions.inbox.answer(id, { token, approved })`
 * accepts it in place of a runtime context, and admits the answer exactly
 * as one given in the chat (a token for someone who may not answer admits
 * nothing).
 *
 * @example
 * ```ts
 * const notify = async (event: ApprovalNotification) => {
 *   if (event.type !== 'created') return;
 *   const token = await event.answerToken({ userId: 'mia', role: 'manager' });
 *   await fetch(process.env.SLACK_WEBHOOK!, {
 *     method: 'POST',
 *     body: JSON.stringify({ text: event.summary, approveUrl: `https://ops.example.com/approve?token=${token}` }),
 *   });
 * };
 * ```
 */
export type ApprovalNotification =
  | {
      readonly type: 'created';
      readonly request: PendingApproval;
      readonly summary: string;
      readonly answerToken: (person: Readonly<Record<string, unknown>>) => Promise<string>;
    }
  | { readonly type: 'answered' | 'expired' | 'withdrawn'; readonly request: PendingApproval; readonly summary: string };
