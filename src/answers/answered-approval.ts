import type { Context } from '@ai-sdk/provider-utils';
import type { AnsweredApproval } from '../actions/intervention-events.ts';
import { answerInfo, type ResumedApproval } from './read-resume.ts';

/** A resumed answer with its call (and who asked it, when known), as `beforeInvocation` handlers read it. */
export function answeredApproval(approval: ResumedApproval, asker?: Context): AnsweredApproval {
  const { toolCallId, toolName, input, approved } = approval;
  return { ...answerInfo(approval), approved, toolCall: { toolCallId, toolName, input }, ...(asker === undefined ? {} : { asker }) };
}
