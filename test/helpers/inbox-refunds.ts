/**
 * A refunds agent whose every refund waits for an approval in the runtime's
 * inbox: the runtime, the employee's request that asks, and her next request
 * that resumes from the inbox's answer (the client carries no approval part).
 */
import { isStepCount, type ModelMessage, tool } from 'ai';
import { z } from 'zod';
import {
  type ApprovalInbox,
  type ConfirmOptions,
  createApprovalInbox,
  createApprovalLedger,
  createInterventions,
  defineHandler,
  InterventionActions,
  type Interventions,
  type InterventionsOptions,
} from '../../src/index.ts';
import { type Mode, run } from './run-both.ts';
import { scriptedModel, step, text, toolCall } from './scripted-model.ts';

export const SECRET = 'a shared approval secret of at least 32 bytes';
export const ALICE = { userId: 'alice', role: 'employee', sessionId: 'chat-1' };
export const BOB = { userId: 'bob', role: 'manager' };
export const CAROL = { userId: 'carol', role: 'manager' };
export const ERIN = { userId: 'erin', role: 'employee' };
export const MANAGERS: ConfirmOptions = { approvers: { roles: ['manager'], label: 'a manager' } };

type Context = Readonly<Record<string, unknown>>;

/** A `refund` tool (`{ amount, note? }`); `executions` records each amount it refunded, `inputs` the arguments it ran with. */
export function refunds() {
  const executions: number[] = [];
  const inputs: unknown[] = [];
  const tools = {
    refund: tool({
      inputSchema: z.object({ amount: z.number().positive(), note: z.string().optional() }),
      execute: async (input) => {
        executions.push(input.amount);
        inputs.push(input);
        return `refunded ${input.amount}`;
      },
    }),
  };
  return { executions, inputs, tools };
}

/** A runtime whose handler confirms every refund with `confirm` (its prompt: `Refund <amount>?`, or `prompt` of the input). */
export function refundRuntime({
  confirm = MANAGERS,
  inbox = createApprovalInbox(),
  prompt = (input: { amount: number }) => `Refund ${input.amount}?`,
  options = {},
}: {
  readonly confirm?: ConfirmOptions;
  readonly inbox?: ApprovalInbox | false;
  readonly prompt?: (input: { amount: number; note?: string }) => string;
  readonly options?: InterventionsOptions;
} = {}): Interventions {
  return createInterventions({
    approvalSecret: SECRET,
    approvalLedger: createApprovalLedger(),
    approvalInbox: inbox,
    ...options,
    handlers: [
      defineHandler({
        name: 'refunds',
        beforeToolCall: ({ toolCall: call }) => InterventionActions.confirm(prompt(call.input as { amount: number }), confirm),
      }),
    ],
  });
}

/** Asks for the refunds `inputs` (one call each, in one step) as `context`: the history to resume, and the approval ids. */
export async function askRefunds(
  interventions: Interventions,
  mode: Mode,
  tools: ReturnType<typeof refunds>['tools'],
  { inputs = [{ amount: 50 }], context = ALICE }: { readonly inputs?: readonly object[]; readonly context?: Context } = {},
): Promise<{ readonly history: ModelMessage[]; readonly approvalIds: string[] }> {
  const prompt: ModelMessage[] = [{ role: 'user', content: 'refund please' }];
  const first = await run(interventions, mode, {
    model: scriptedModel(step(...inputs.map((input, index) => toolCall(`r${index + 1}`, 'refund', input)))),
    tools,
    stopWhen: isStepCount(3),
    messages: prompt,
    runtimeContext: context,
  });
  const approvalIds = first.content.flatMap((part) =>
    part.type === 'tool-approval-request' ? [(part as unknown as { approvalId: string }).approvalId] : [],
  );
  if (approvalIds.length !== inputs.length) throw new Error(`expected ${inputs.length} approval requests, got ${approvalIds.length}`);
  return { history: [...prompt, ...first.responseMessages], approvalIds };
}

/** One refund asked by Alice: its history and approval id. */
export async function askRefund(
  interventions: Interventions,
  mode: Mode,
  tools: ReturnType<typeof refunds>['tools'],
  input: { readonly amount: number; readonly note?: string } = { amount: 50 },
) {
  const { history, approvalIds } = await askRefunds(interventions, mode, tools, { inputs: [input] });
  return { history, approvalId: approvalIds[0] as string };
}

/** The requester's next request: the history with the inbox's answers written in, sent as `context`; the model it was sent to. */
export async function resumeFromInbox(
  interventions: Interventions,
  mode: Mode,
  tools: ReturnType<typeof refunds>['tools'],
  history: readonly ModelMessage[],
  context: Context = ALICE,
) {
  const model = scriptedModel(step(text('done')));
  const outcome = await run(interventions, mode, {
    model,
    tools,
    stopWhen: isStepCount(3),
    messages: await interventions.inbox.resume(history),
    runtimeContext: context,
  });
  return { model, outcome };
}
