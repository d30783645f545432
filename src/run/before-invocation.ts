import type { Tool, ToolSet } from 'ai';
import { answeredApproval } from '../answers/answered-approval.ts';
import { InvalidActionError } from '../errors/invalid-action-error.ts';
import { InvocationDeniedError } from '../errors/invocation-denied-error.ts';
import { cloneInvocationEvent } from '../handlers/clone-invocation-event.ts';
import { injectedMessage } from '../messages/injected-text.ts';
import { userMessage } from '../messages/user-message.ts';
import { getOwn } from '../util/get-own.ts';
import { evaluate } from './evaluate-and-report.ts';
import type { InvocationChanges } from './invocation-changes.ts';
import type { Run } from './run.ts';

/**
 * Evaluates the `beforeInvocation` handlers once, before the first model
 * call: a deny ends the call (`InvocationDeniedError`), a guide adds the
 * feedback to the input, a transform may change the messages, the
 * instructions and the tools (remove or edit one; adding one is an error:
 * the SDK fixes the tool set when the call starts).
 */
export async function beforeInvocation(run: Run): Promise<InvocationChanges> {
  const tools = run.tools ?? {};
  const inputMessages = run.messages;
  const verdict = await evaluate(
    run,
    {
      lifecycle: 'beforeInvocation',
      runtimeContext: run.runtimeContext,
      runId: run.runId,
      abortSignal: run.abortSignal,
      messages: [...inputMessages],
      instructions: run.instructions,
      tools,
      answers:
        run.approvals === undefined
          ? []
          : run.approvals.admittedAnswers.map((answer) => answeredApproval(answer, run.approvals?.askerOf(answer.toolCallId))),
    },
    cloneInvocationEvent,
  );
  if (verdict.type === 'deny') throw new InvocationDeniedError({ handlerName: verdict.handler, reason: verdict.reason });
  if (verdict.type === 'proceed') return UNCHANGED;

  const draft = verdict.event;
  let messages = verdict.transformed ? draft.messages : undefined;
  if (verdict.type === 'guide') {
    messages = [
      ...(messages ?? inputMessages),
      injectedMessage(userMessage(run.snapshot.wording.modelGuidance({ guidance: verdict.guidance })), 'guidance'),
    ];
  }
  const removedTools = new Set<string>();
  const replacedTools = new Map<string, Tool>();
  if (verdict.transformed) {
    for (const name of Object.keys(tools)) {
      const next = getOwn(draft.tools, name);
      if (next === undefined) removedTools.add(name);
      else if (next !== tools[name]) replacedTools.set(name, next);
    }
    const added = Object.keys(draft.tools).find((name) => getOwn(tools, name) === undefined);
    if (added !== undefined) throw addedToolError(run, draft.tools, added);
  }
  const instructionsChanged = verdict.transformed && draft.instructions !== run.instructions;
  return {
    messages,
    instructions: instructionsChanged ? draft.instructions : undefined,
    instructionsChanged,
    removedTools,
    replacedTools,
  };
}

const UNCHANGED: InvocationChanges = Object.freeze({
  messages: undefined,
  instructions: undefined,
  instructionsChanged: false,
  removedTools: new Set<string>(),
  replacedTools: new Map<string, Tool>(),
});

function addedToolError(run: Run, tools: ToolSet, name: string): InvalidActionError {
  const handler = run.decisions.findLast((record) => record.lifecycle === 'beforeInvocation' && record.action === 'transform')?.handler;
  return new InvalidActionError({
    handlerName: handler ?? 'unknown',
    lifecycle: 'beforeInvocation',
    received: tools,
    message: `A beforeInvocation transform${handler ? ` of "${handler}"` : ''} added the tool "${name}": transforms may remove tools or edit them, but new tools must be passed in \`tools\`.`,
  });
}
