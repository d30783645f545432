import type { ModelMessage, Tool } from 'ai';
import { ANYONE_ONCE, type ConfirmTerms, hasPredicate } from '../actions/confirm-terms.ts';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import { EDIT_HANDLER, validateEdit } from '../answers/validate-edit.ts';
import type { ApprovalPin } from '../approvals/approval-pin.ts';
import type { ApprovalSession } from '../approvals/approval-session.ts';
import { ToolCallBlockedError } from '../errors/tool-call-blocked-error.ts';
import { decidesPlainCalls } from '../run/call-plan.ts';
import type { Run } from '../run/run.ts';
import type { Step } from '../run/step.ts';
import { decidedInput, type ToolCallDecision } from '../run/tool-call-decision.ts';
import { decisionOf } from '../tool-call/decision-of.ts';
import { denyCall, notTheAnsweredCall } from '../tool-call/deny-call.ts';
import type { DecideInExecute } from '../tool-call/guard-execute.ts';
import { unreachable } from '../util/unreachable.ts';

/** The steps and approval sessions of the plain calls of one guarded tool set, by the SDK's `messages` array. */
export interface PlainCalls {
  stepOf(messages: ModelMessage[]): Step;
  sessionOf(messages: ModelMessage[]): ApprovalSession | undefined;
}

/**
 * The call a plain call's `execute` runs (see `guardToolsStandalone`): its
 * resumed answer applied, or the decision `needsApproval` took, or one taken
 * now when `needsApproval` was not consulted; a call that does not run
 * throws the text the model reads. Loaded with the first plain call that has
 * anything to decide.
 */
export async function decidePlainCall(
  run: Run,
  { tool, call, options }: Parameters<DecideInExecute>[1],
  { stepOf, sessionOf }: PlainCalls,
): Promise<Parameters<DecideInExecute>[1]['call']> {
  const step = stepOf(options.messages);
  const session = sessionOf(options.messages);
  const answer = session?.answerFor(call.toolCallId);
  if (session !== undefined && answer !== undefined) return applyAnswer(run, session, step, tool, call, answer);
  // fail closed: the SDK resumes a call on an answer the runtime dropped (it answers nothing a person may answer)
  const dropped = session?.droppedFor(call.toolCallId);
  if (dropped !== undefined) {
    return applyInExecute(
      run,
      call,
      await denyCall(run, call, `the approval answer given for this call id was not used: ${dropped.reason}`),
      false,
    );
  }
  // needsApproval decided it (the SDK asked it), or nobody asked: a confirm then cannot be answered
  const asked = step.entry(call)?.ahead === true;
  return applyInExecute(run, call, await decisionOf(run, step, call, { applies: true }), asked);
}

/**
 * The call `execute` runs for a resumed answer, the same way the wrappers
 * take it: a refusal (a typed one the SDK read as an approval, or an answer
 * that cannot be read) runs nothing; a person's edit is validated against
 * the tool's input schema and runs instead of the model's arguments, after
 * the handlers decide again on it (a deny still wins); an approval without
 * an edit runs with the decision `needsApproval` took when the SDK asked
 * again (transforms not applied again). Every refusal leaves a record.
 */
async function applyAnswer(
  run: Run,
  session: ApprovalSession,
  step: Step,
  tool: Tool,
  call: ToolCallInfo,
  answer: ResumedApproval,
): Promise<ToolCallInfo> {
  // a call that does not run is denied with a record, and `execute` throws the text the model reads
  const refuse = async (reason: string, options?: Parameters<typeof denyCall>[3]) =>
    applyInExecute(run, call, await denyCall(run, call, reason, options), false);
  const another = notTheAnsweredCall(answer, call);
  if (another !== undefined) return refuse(another);
  const refused = !answer.approved || answer.problem !== undefined;
  // a refusal gives the model the feedback the person saw with the request (kept with who asked)
  const refusal = session.refusal(answer, call, refused ? (await session.askerOfCall(answer))?.guidance : undefined);
  if (refusal !== undefined)
    return refuse(refusal.reason, { handler: refusal.handler, ...(refusal.text === undefined ? {} : { text: refusal.text }) });
  let target = call;
  if (answer.edit !== undefined) {
    const checked = await validateEdit(tool, call.toolName, answer.edit.value);
    if (!checked.ok) return refuse(checked.problem, { handler: EDIT_HANDLER });
    target = { ...call, input: checked.value };
  }
  if (!decidesPlainCalls(run.snapshot)) return target;
  // admitted first (who asked, the expiry, who may answer, the count), under the terms it was asked with:
  // the request cannot stay pending, so an answer that is not admitted runs nothing
  const pin = await session.askerOfCall(answer);
  const first = pin !== undefined && !hasPredicate(pin.terms);
  if (first) await admit(session, answer, pin.terms ?? ANYONE_ONCE, run, pin, target);
  // the call needsApproval decided with the answer (transforms not applied again), or the person's edit, decided anew
  const decision = await decisionOf(run, step, target, {
    applies: true,
    answer,
    asker: pin?.asker,
    edited: answer.edit !== undefined,
  });
  // else the people rules of the handlers asking now (a predicate lives in its handler), or those pinned
  const answered = decision.type === 'proceed' || decision.type === 'transform' ? decision.answered : undefined;
  const terms = answered ?? pin?.terms;
  if (!first && terms !== undefined) await admit(session, answer, terms, run, pin, target);
  return applyInExecute(run, target, decision, true);
}

/** Admits an answer under `terms` (see `ApprovalSession.settle`); one that is not admitted throws the text the model reads. */
async function admit(
  session: ApprovalSession,
  answer: ResumedApproval,
  terms: ConfirmTerms,
  run: Run,
  pin: ApprovalPin | undefined,
  call: ToolCallInfo,
): Promise<void> {
  const settled = await session.settle(answer, terms, run.runtimeContext, pin);
  if (settled.type !== 'approved') throw blockedError(call, settled.text);
}

/** The error `execute` throws for a call that does not run (its record already written): the model reads `text`. */
function blockedError(call: ToolCallInfo, text: string): ToolCallBlockedError {
  return new ToolCallBlockedError({ toolName: call.toolName, toolCallId: call.toolCallId, decision: 'deny', message: text });
}

/** The call `execute` runs for a decision, or the model-facing error of one that does not run. */
function applyInExecute(
  run: Run,
  call: Parameters<DecideInExecute>[1]['call'],
  decision: ToolCallDecision,
  asked: boolean,
): Parameters<DecideInExecute>[1]['call'] {
  const { wording } = run.snapshot;
  const blocked = (kind: 'deny' | 'guide', message: string) =>
    new ToolCallBlockedError({ toolName: call.toolName, toolCallId: call.toolCallId, decision: kind, message });
  switch (decision.type) {
    case 'deny':
      throw blocked('deny', decision.text);
    case 'guide':
      throw blocked('guide', decision.text);
    case 'confirm':
      // needsApproval was not consulted, so nobody approved this call
      if (!asked) {
        throw blocked(
          'deny',
          wording.deniedToolCall({
            toolCall: call,
            reason: `it needs a human's approval (${decision.prompt}), and no approval was asked`,
            handler: 'ai-interventions',
          }),
        );
      }
      return withInput(call, decision);
    case 'proceed':
    case 'transform':
      return withInput(call, decision);
    default:
      return unreachable(decision);
  }
}

function withInput(call: Parameters<DecideInExecute>[1]['call'], decision: ToolCallDecision) {
  const input = decidedInput(decision);
  return input === undefined ? call : { ...call, input: input.value };
}
