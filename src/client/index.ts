// `ai-interventions/client`: what a browser needs, with no runtime behind it
export {
  APPROVAL_ANSWER_PREFIX,
  type ApprovalAnswer,
  type ApprovalRemember,
  approvalAnswer,
  approvalReasonText,
  type ReadAnswer,
  readApprovalAnswer,
} from './approval-answer.ts';
export type {
  InterventionData,
  InterventionDataTypes,
  InterventionRecordData,
  InterventionUIMessage,
} from './intervention-data.ts';
