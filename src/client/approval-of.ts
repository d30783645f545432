import type { InterventionApprovalData, InterventionData } from './intervention-data.ts';

/**
 * What the decisions of one tool call say of its human approval, merged in
 * order (a later decision says more: a request's terms first, then what
 * became of each answer): who asked, who may answer (in words and as
 * rules), its status, who answered and who approved. `undefined` when no
 * decision says anything of an approval.
 *
 * A request shown again after an answer that did not count (the wrong
 * person, a quorum short) carries what became of that answer; the rules
 * who may answer come with the request itself: merging gives both.
 *
 * @example
 * ```ts
 * // the decisions of one tool call of a useChat message, in order
 * const decisionsOf = (message: InterventionUIMessage, toolCallId: string) =>
 *   message.parts.flatMap((item) => (item.type === 'data-intervention' && item.data.toolCallId === toolCallId ? [item.data] : []));
 * const line = (message: InterventionUIMessage, toolCallId: string) => {
 *   const approval = approvalOf(decisionsOf(message, toolCallId));
 *   return approval?.status === 'approved' ? `approved by ${approval.answeredBy}` : `waiting for ${approval?.mayAnswer ?? 'anyone'}`;
 * };
 * ```
 */
export function approvalOf(decisions: readonly InterventionData[]): InterventionApprovalData | undefined {
  let merged: InterventionApprovalData | undefined;
  for (const { approval } of decisions) {
    if (approval !== undefined) merged = { ...merged, ...approval };
  }
  return merged;
}
