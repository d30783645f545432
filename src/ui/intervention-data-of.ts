import type { DecisionRecord } from '../actions/decision-record.ts';
import { userIdOf } from '../actions/user-id-of.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import type { InterventionApprovalData, InterventionData, InterventionRecordData } from '../client/intervention-data.ts';
import { InterventionsError } from '../errors/interventions-error.ts';

/**
 * The decision the UI shows for one tool call, from the records of its
 * evaluation (in order) and the person's answer it follows, if any. What the
 * model reads is not here: the reason is the one for people (the handler's
 * `display`, else its reason, feedback or prompt). `requester` is the
 * trusted runtime context of the request the decision is made in: who asks
 * a request it asks, who answers an answer it resumes.
 */
export function interventionDataOf({
  toolCallId,
  toolName,
  records,
  answer,
  input,
  requester,
}: {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly records: readonly DecisionRecord[];
  readonly answer?: ResumedApproval | undefined;
  /** The arguments the call runs with, when a person edited them. */
  readonly input?: { readonly value: unknown } | undefined;
  readonly requester?: Readonly<Record<string, unknown>> | undefined;
}): InterventionData {
  const enforced = records.filter((record) => record.enforced);
  const of = (action: DecisionRecord['action']) => enforced.filter((record) => record.action === action);
  const denied = of('deny')[0];
  const asked = of('confirm');
  const guided = of('guide');
  const data: Omit<InterventionData, 'records'> & { -readonly [K in 'handler' | 'reason']?: string } = denied
    ? { toolCallId, toolName, action: 'deny', handler: denied.handler, reason: denied.display ?? denied.reason }
    : answer !== undefined && !answer.approved
      ? { toolCallId, toolName, action: 'deny', reason: answer.reason }
      : asked.length > 0
        ? { toolCallId, toolName, action: 'confirm', handler: asked[0]?.handler, reason: reasons(asked, 'prompt') }
        : guided.length > 0
          ? { toolCallId, toolName, action: 'guide', handler: guided[0]?.handler, reason: reasons(guided, 'feedback') }
          : { toolCallId, toolName, action: of('transform').length > 0 ? 'transform' : 'proceed' };
  // a confirm outranks guides: the person is shown their feedback with the request
  const guidance =
    data.action === 'confirm' && guided.length > 0
      ? guided.map((record) => ({ handler: record.handler, feedback: record.display ?? record.feedback ?? '' }))
      : undefined;
  const stepNumber = records.find((record) => record.stepNumber !== undefined)?.stepNumber;
  // what the request asks of its answer, then what became of this one: later records say more
  const approvals = records.filter((record) => record.approval !== undefined).map((record) => record.approval);
  const approval = withPeople(approvals.length === 0 ? undefined : Object.assign({}, ...approvals), data.action, answer, requester);
  return json({
    ...withoutUndefined(data),
    ...(answer === undefined
      ? {}
      : {
          answer: withoutUndefined({
            approved: answer.approved,
            reason: answer.reason,
            remember: answer.remember,
            edited: answer.edit !== undefined,
          }),
        }),
    ...(approval === undefined ? {} : { approval }),
    ...(guidance === undefined ? {} : { guidance }),
    ...(input === undefined ? {} : { input: input.value }),
    ...(stepNumber === undefined ? {} : { stepNumber }),
    records: records.map(recordData),
  });
}

/**
 * The people of an approval the records do not name: the requester asks a
 * request made in their request, and answers (approves or refuses) what
 * their request resumes.
 */
function withPeople(
  approval: InterventionApprovalData | undefined,
  action: InterventionData['action'],
  answer: ResumedApproval | undefined,
  requester: Readonly<Record<string, unknown>> | undefined,
): InterventionApprovalData | undefined {
  const userId = userIdOf(requester);
  if (userId === undefined) return approval;
  if (answer !== undefined) return approval?.answeredBy === undefined ? { ...approval, answeredBy: userId } : approval;
  if (action === 'confirm' && approval?.askedBy === undefined) return { ...approval, askedBy: userId };
  return approval;
}

function reasons(records: readonly DecisionRecord[], field: 'prompt' | 'feedback'): string {
  return records.map((record) => record.display ?? record[field] ?? '').join('\n');
}

function recordData(record: DecisionRecord): InterventionRecordData {
  const { handler, action, reason, feedback, prompt, display, enforced, mode, durationMs, error, warning, stepNumber } = record;
  return withoutUndefined({
    handler,
    action,
    reason,
    feedback,
    prompt,
    display,
    enforced,
    mode,
    durationMs,
    // a stable code, never the message: a handler's error may quote what a person must not see
    error: error === undefined ? undefined : InterventionsError.isInstance(error) ? error.code : 'handler-failed',
    warning,
    stepNumber,
  });
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

/** The data as JSON carries it (what reaches the client): arguments that are not JSON are dropped. */
function json(data: InterventionData): InterventionData {
  try {
    return JSON.parse(JSON.stringify(data)) as InterventionData;
  } catch {
    const { input: _input, ...rest } = data;
    return JSON.parse(JSON.stringify(rest)) as InterventionData;
  }
}
