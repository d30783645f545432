import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4ToolCall,
} from '@ai-sdk/provider';
import {
  asSchema,
  safeParseJSON,
  safeValidateTypes,
} from '@ai-sdk/provider-utils';
import type { Tool } from 'ai';
import { getOwn } from '../util/get-own.ts';
import { cloneToolCallEvent } from './drafts.ts';
import type { InterventionsRun } from './interventions-run.ts';

/**
 * The decision pass over one model response, before the SDK sees it: every
 * well-formed client tool call is evaluated by the `beforeToolCall` handlers,
 * one call at a time in the model's order. Deny, guide and confirm become
 * the approval statuses `toolApproval` returns; a transform rewrites the
 * call's input in the response itself, so the history shows the arguments
 * that actually ran. Malformed calls (unknown tool, bad JSON, invalid input)
 * are left to the SDK, which reports them to the model as usual.
 */
export async function decideToolCalls(
  run: InterventionsRun,
  response: LanguageModelV4GenerateResult,
): Promise<LanguageModelV4GenerateResult> {
  if (run.snapshot.handlers.beforeToolCall.length === 0) return response;
  let content = response.content;

  for (let index = 0; index < content.length; index++) {
    const part = content[index];
    if (part?.type !== 'tool-call' || part.providerExecuted === true) continue;
    const parsed = await parseToolCall(run, part);
    if (parsed === undefined) continue;

    const call = { toolCallId: part.toolCallId, toolName: part.toolName, input: parsed.input };
    const verdict = await run.evaluate({
      event: {
        lifecycle: 'beforeToolCall',
        runtimeContext: run.runtimeContext,
        abortSignal: run.abortSignal,
        stepNumber: run.stepNumber,
        toolCall: call,
        tool: parsed.tool,
        messages: run.stepMessages,
        approved: false,
      },
      makeDraft: cloneToolCallEvent,
      subject: run.subject(call),
    });
    run.decided.add(call.toolCallId);
    const decision = run.approvalDecision(call, verdict);
    if (decision !== undefined) run.toolDecisions.set(call.toolCallId, decision);

    if ((verdict.type === 'transform' || verdict.type === 'confirm') && verdict.transformed) {
      const input = JSON.stringify(verdict.event.toolCall.input);
      if (input !== JSON.stringify(parsed.input)) {
        if (content === response.content) content = [...content];
        content[index] = { ...part, input };
      }
    }
  }
  return content === response.content ? response : { ...response, content };
}

/** Parses a call the way the SDK will; `undefined` when it is malformed. */
async function parseToolCall(
  run: InterventionsRun,
  part: LanguageModelV4ToolCall,
): Promise<{ readonly tool: Tool; readonly input: unknown } | undefined> {
  const active = run.stepActiveTools;
  if (active !== undefined && !active.includes(part.toolName)) return undefined;
  const tool = getOwn(run.tools, part.toolName);
  if (tool === undefined) return undefined;
  const schema = asSchema(tool.inputSchema);
  const parsed =
    part.input.trim() === ''
      ? await safeValidateTypes({ value: {}, schema })
      : await safeParseJSON({ text: part.input, schema });
  return parsed.success ? { tool, input: parsed.value } : undefined;
}
