import type { Context } from '@ai-sdk/provider-utils';
import type { ModelMessage, Tool, ToolExecutionOptions, ToolSet } from 'ai';
import { ANYONE_ONCE, hasPredicate } from '../actions/confirm-terms.ts';
import { answersIn } from '../answers/answers-in.ts';
import { ApprovalSession, keepAsker } from '../approvals/approval-session.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import { decidesPlainCalls } from '../run/call-plan.ts';
import { Run } from '../run/run.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import { Step } from '../run/step.ts';
import { decisionOf } from '../tool-call/decision-of.ts';
import type { ApprovalOf, DecideInExecute } from '../tool-call/guard-execute.ts';
import { decidePlainCall } from './decide-plain-call.ts';
import { guardToolSet } from './guard-tool-set.ts';

/**
 * Guards tools for a plain `generateText` / `streamText` / `ToolLoopAgent`
 * (no run around them). A call is decided (`decisionOf`) in the tool's
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
  fromModel?: (toolCallId: string) => void,
): TOOLS {
  const steps = new WeakMap<ModelMessage[], Step>();
  const stepOf = (messages: ModelMessage[]) => {
    let step = steps.get(messages);
    if (step === undefined) steps.set(messages, (step = new Step(undefined, messages)));
    return step;
  };
  // each call is met once per step (needsApproval, then execute): a new one (not resumed) must come from a wrapped model;
  // one the input answers (its answer read, or dropped as answering nothing) is resumed from the history
  const met = new WeakMap<ModelMessage[], Set<string>>();
  const meet = (messages: ModelMessage[], toolCallId: string) => {
    if (fromModel === undefined) return;
    const session = sessionOf(messages);
    if (session !== undefined && (session.answerFor(toolCallId) !== undefined || session.droppedFor(toolCallId) !== undefined)) return;
    let ids = met.get(messages);
    if (ids === undefined) met.set(messages, (ids = new Set()));
    if (ids.has(toolCallId)) return;
    ids.add(toolCallId);
    fromModel(toolCallId);
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

  /** Whether a plain call's execution has anything to decide: handlers, gates, or an answer for it. */
  const decides = (run: Run, { call, options }: Parameters<DecideInExecute>[1]) => {
    if (decidesPlainCalls(run.snapshot)) return true;
    const session = sessionOf(options.messages);
    return session !== undefined && (session.answerFor(call.toolCallId) !== undefined || session.droppedFor(call.toolCallId) !== undefined);
  };

  return guardToolSet(tools, {
    // the run carries the tools it guards: a call's event has its tool, and annotation selectors read its hints
    runOf: () => Run.detached(snapshotOf(), tools, runtimeContext),
    // what decides a plain call's execution loads with the first one that has anything to decide
    decide: async (run, details) => {
      meet(details.options.messages, details.call.toolCallId);
      if (!decides(run, details)) return details.call;
      return decidePlainCall(run, details, { stepOf, sessionOf });
    },
    approvalOf,
    extend: (toolName, tool) =>
      ({
        needsApproval: async (input: unknown, options: { toolCallId: string; messages: ModelMessage[] }) => {
          meet(options.messages, options.toolCallId);
          const run = Run.detached(snapshotOf(), tools, runtimeContext);
          if (decidesPlainCalls(run.snapshot)) {
            const step = stepOf(options.messages);
            const call = { toolCallId: options.toolCallId, toolName, input };
            // the SDK asks again when it resumes an approved call: the answer counts (as the person who asked),
            // transforms are not applied again
            const session = sessionOf(options.messages);
            const approval = session?.answerFor(options.toolCallId);
            const pin = approval === undefined ? undefined : await session?.askerOfCall(approval);
            // an approval is admitted before the handlers decide again (what they remember, they remember from an admitted
            // answer); one that is not admitted runs nothing: execute refuses it
            const admitsFirst = pin !== undefined && !hasPredicate(pin.terms);
            if (session !== undefined && approval?.approved === true && approval.problem === undefined && admitsFirst) {
              const settled = await session.settle(approval, pin?.terms ?? ANYONE_ONCE, run.runtimeContext, pin);
              if (settled.type !== 'approved') return false;
            }
            const decision = await decisionOf(run, step, call, { applies: false, answer: approval, asker: pin?.asker });
            if (decision.type === 'confirm') {
              // the request carries no pin of its own: who asked, and when, is kept in the ledger
              await run.critical(() => keepAsker(approvalLedger, call, run.runtimeContext, decision.terms, decision.guidance));
              return true;
            }
          }
          const own = tool.needsApproval;
          return typeof own === 'function' ? own(input as never, options as never) : own === true;
        },
      }) as Partial<Tool>,
  });
}

export type { Context, ToolExecutionOptions };
