/** The handler name of the records the runtime writes for a confirm's answer it could not verify. */
export const VERIFY_HANDLER = 'approval-verification';

/** Why the call was refused, as the decision record says it. */
export const UNVERIFIABLE_REASON =
  "the approval could no longer be verified as the answer to this confirm: it was not signed by this server's approval secret " +
  '(it was given before a restart or to another instance without a shared approvalSecret, or its call or signature was changed), so nothing was run';

/** What the person sees for such a call (the record's `display`). */
export const UNVERIFIABLE_DISPLAY =
  'This approval could no longer be verified (the server restarted, or the call changed). Nothing was run; approve it again if it is still needed.';

/**
 * How an unverified answer to a confirm is refused: named, said to the
 * model, shown to the person.
 */
export function unverifiedDenial(toolName: string) {
  const text =
    `The approval of the call to "${toolName}" could no longer be verified (it was given before the server restarted, ` +
    'or to another server instance, or its call was changed), so the call was not executed. ' +
    'If it is still needed, call the tool again: the user will be asked to approve it again.';
  return { handler: VERIFY_HANDLER, text, display: UNVERIFIABLE_DISPLAY };
}
