import type { AnsweredApproval } from '../actions/intervention-events.ts';
import { answerInfo, type ResumedApproval } from './read-resume.ts';

/** A resumed answer with its call, as `beforeInvocation` handlers read it. */
export function answeredApproval(approval: ResumedApproval): AnsweredApproval {
  const { toolCallId, toolName, input, approved } = approval;
  return { ...answerInfo(approval), approved, toolCall: { toolCallId, toolName, input } };
}
