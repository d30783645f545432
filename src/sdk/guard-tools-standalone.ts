import type { Context } from '@ai-sdk/provider-utils';
import type { ModelMessage, Tool, ToolExecutionOptions, ToolSet } from 'ai';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import { answersIn } from '../approvals/answers-in.ts';
import type { ApprovalLedger } from '../approvals/approval-ledger.ts';
import { ApprovalSession, keepAsker } from '../approvals/approval-session.ts';
import type { ResumedApproval } from '../approvals/read-resume.ts';
import { EDIT_HANDLER, validateEdit } from '../approvals/validate-edit.ts';
import { ToolCallBlockedError } from '../errors/tool-call-blocked-error.ts';
import { Run } from '../run/run.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import { Step } from '../run/step.ts';
import { decidedInput, type ToolCallDecision } from '../run/tool-call-decision.ts';
import { decideToolCall } from '../tool-call/decide-tool-call.ts';
import { AMBIGUOUS_CALL_ID, denyCall, notTheAnsweredCall } from '../tool-call/deny-call.ts';
import { gateToolCalls } from '../tool-call/gate-tool-calls.ts';
import type { ApprovalOf, DecideInExecute } from '../tool-call/guard-execute.ts';
import { unreachable } from '../util/unreachable.ts';
import { guardToolSet } from './guard-tool-set.ts';

/**
 * Guards tools for a plain `generateText` / `streamText` / `ToolLoopAgent`
 * (no run around them). A call is decided (`decideToolCall`) in the tool's
 * `needsApproval`, so `confirm` becomes the SDK's approval request, and the
 * decision is applied in `execute`: deny and guide become the tool's error
 * result, in the same wording the wrappers use.
 *
 * The SDK passes the same `messages` array to `needsApproval` and `execute`
 * within a step, so it keys the step whose decision table `execute` reads.
 * Without `needsApproval` (a `toolApproval` option overrides it), the call is
 * decided in `execute`, and a `confirm` cannot be answered: the call is
 * blocked, never run unapproved. Each call meets the `gateToolCalls` hooks
 * alone (a batch of one: the tools never see the turn). The answers a plain call resumes are read
 * by an approval session per SDK `messages` array (the wrappers' own: the
 * same refusals, wording and edit validation), and a call the SDK resumes
 * after a human's approval executes once through `approvalLedger` (the
 * runtime's): a replayed resume gets the outcome of that execution.
 */
export function guardToolsStandalone<TOOLS extends ToolSet>(
  tools: TOOLS,
  snapshotOf: () => RuntimeSnapshot,
  approvalLedger?: ApprovalLedger,
  runtimeContext?: Context,
): TOOLS {
  const steps = new WeakMap<ModelMessage[], Step>();
  const stepOf = (messages: ModelMessage[]) => {
    let step = steps.get(messages);
    if (step === undefined) steps.set(messages, (step = new Step(undefined, messages)));
    return step;
  };
  // the approval session of a plain call's input: one per SDK messages array that carries answers
  const sessions = new WeakMap<ModelMessage[], ApprovalSession | null>();
  const sessionOf = (messages: ModelMessage[]): ApprovalSession | undefined => {
    let session = sessions.get(messages);
    if (session === undefined) {
      const snapshot = snapshotOf();
      session = !answersIn(messages)
        ? null
        : new ApprovalSession({
            messages,
            wording: snapshot.wording,
            tools,
            ledger: approvalLedger,
            runtimeSecret: snapshot.approvalSecret,
            previousSecrets: snapshot.previousApprovalSecrets,
            record: (record, input) => Run.detached(snapshotOf(), tools, runtimeContext).record(record, input),
          });
      sessions.set(messages, session);
    }
    return session ?? undefined;
  };
  const approvalOf: ApprovalOf = (_run, options) => {
    const session = sessionOf(options.messages);
    const approval = session?.executesOnce ? session.answerFor(options.toolCallId) : undefined;
    return session === undefined || approval === undefined ? undefined : { session, approval };
  };

  const decide: DecideInExecute = async (run, { tool, call, options }) => {
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
    const asked = step.take(call);
    // fail closed: two calls of one tool with one id cannot be told apart, so neither runs
    const decision =
      asked === 'ambiguous'
        ? await denyCall(run, call, AMBIGUOUS_CALL_ID)
        : (asked ?? (await decideToolCall(run, step, call, { gates: await gatesOf(run, step, call) })));
    return applyInExecute(run, call, decision, asked !== undefined);
  };

  /** Whether a plain call's execution has anything to decide: handlers, gates, or an answer for it. */
  const decides = (run: Run, { call, options }: Parameters<DecideInExecute>[1]) => {
    if (decidesCalls(run)) return true;
    const session = sessionOf(options.messages);
    return session !== undefined && (session.answerFor(call.toolCallId) !== undefined || session.droppedFor(call.toolCallId) !== undefined);
  };

  return guardToolSet(tools, {
    // the run carries the tools it guards: a call's event has its tool, and annotation selectors read its hints
    runOf: () => Run.detached(snapshotOf(), tools, runtimeContext),
    decide: (run, details) => (decides(run, details) ? decide(run, details) : Promise.resolve(details.call)),
    approvalOf,
    extend: (toolName, tool) =>
      ({
        needsApproval: async (input: unknown, options: { toolCallId: string; messages: ModelMessage[] }) => {
          const run = Run.detached(snapshotOf(), tools, runtimeContext);
          if (decidesCalls(run)) {
            const step = stepOf(options.messages);
            const call = { toolCallId: options.toolCallId, toolName, input };
            // the SDK asks again when it resumes an approved call: the answer counts (as the person who asked),
            // transforms are not applied again
            const session = sessionOf(options.messages);
            const approval = session?.answerFor(options.toolCallId);
            const asker = approval === undefined ? undefined : (await session?.askerOfCall(approval))?.asker;
            const gates = await gatesOf(run, step, call);
            const decision = await decideToolCall(run, step, call, { approval, gates, runtimeContext: asker });
            step.write(call, decision);
            if (decision.type === 'confirm') {
              // the request carries no pin of its own: who asked, and when, is kept in the ledger
              await run.critical(() => keepAsker(approvalLedger, call, run.runtimeContext, decision.terms));
              return true;
            }
          }
          const own = tool.needsApproval;
          return typeof own === 'function' ? own(input as never, options as never) : own === true;
        },
      }) as Partial<Tool>,
  });
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
  const refusal = session.refusal(answer, call);
  if (refusal !== undefined)
    return refuse(refusal.reason, { handler: refusal.handler, ...(refusal.text === undefined ? {} : { text: refusal.text }) });
  let target = call;
  const asked = step.take(call);
  if (asked === 'ambiguous') return refuse(AMBIGUOUS_CALL_ID);
  if (answer.edit !== undefined) {
    const checked = await validateEdit(tool, call.toolName, answer.edit.value);
    if (!checked.ok) return refuse(checked.problem, { handler: EDIT_HANDLER });
    target = { ...call, input: checked.value };
  }
  if (!decidesCalls(run)) return target;
  const pin = await session.askerOfCall(answer);
  const decision =
    answer.edit === undefined && asked !== undefined
      ? asked
      : await decideToolCall(run, step, target, { approval: answer, gates: await gatesOf(run, step, target), runtimeContext: pin?.asker });
  // the people rules of the confirms it answered: who may answer, the quorum, the expiry (the request cannot stay pending)
  // (those of a handler asking again; else those pinned when it asked)
  const answered = decision.type === 'proceed' || decision.type === 'transform' ? decision.answered : undefined;
  const terms = answered ?? pin?.terms;
  if (terms !== undefined) {
    const settled = await session.settle(answer, terms, run.runtimeContext, pin);
    if (settled.type !== 'approved') throw blockedError(target, settled.text);
  }
  return applyInExecute(run, target, decision, true);
}

/** Whether the runtime decides tool calls: `beforeToolCall` handlers, or `gateToolCalls` hooks. */
function decidesCalls(run: Run): boolean {
  return run.snapshot.handlers.beforeToolCall.length > 0 || run.snapshot.hooks.gateToolCalls.length > 0;
}

/**
 * The gates' actions for one call of a plain generateText / streamText:
 * tools guarded without a run never see the turn, so each call meets the
 * `gateToolCalls` hooks alone, as a batch of one (a gate that weighs a
 * turn's calls together sees them one at a time here).
 */
async function gatesOf(run: Run, step: Step, call: ToolCallInfo) {
  if (run.snapshot.hooks.gateToolCalls.length === 0) return undefined;
  const [gates] = await gateToolCalls(run, step, [call]);
  return gates;
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

export type { Context, ToolExecutionOptions };
