// `ai-interventions/client`: what a browser needs, with no runtime behind it
export {
  APPROVAL_ANSWER_PREFIX,
  approvalAnswer,
  approvalReasonText,
  readApprovalAnswer,
  type ApprovalAnswer,
  type ApprovalRemember,
  type ReadAnswer,
} from './approval-answer.ts';
export type {
  InterventionData,
  InterventionDataTypes,
  InterventionRecordData,
  InterventionUIMessage,
} from './intervention-data.ts';
