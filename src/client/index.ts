/**
 * `ai-interventions/client`: what a browser needs to answer an approval, with
 * no runtime behind it (it imports no package).
 *
 * @module ai-interventions/client
 */
export {
  APPROVAL_ANSWER_PREFIX,
  type ApprovalAnswer,
  type ApprovalRemember,
  approvalAnswer,
  approvalReasonText,
  type ReadAnswer,
  readApprovalAnswer,
} from './approval-answer.ts';
export { approvalOf } from './approval-of.ts';
export { type ApprovalPerson, canAnswer } from './can-answer.ts';
export type {
  ApproversData,
  InterventionApprovalData,
  InterventionData,
  InterventionDataTypes,
  InterventionRecordData,
  InterventionUIMessage,
} from './intervention-data.ts';
