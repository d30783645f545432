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
import { InvalidHookResultError } from '../errors/invalid-hook-result-error.ts';
import type { ToolCallInfo } from '../handlers/intervention-events.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import { getOwn } from '../util/get-own.ts';
import { isThenable } from '../util/is-thenable.ts';
import { cloneToolCallEvent } from './drafts.ts';
import type { InterventionsRun } from './interventions-run.ts';

/**
 * The decision pass over one model response, before the SDK sees it.
 *
 * 1. The turn's well-formed client tool calls (known tool, valid input) are
 *    collected; malformed ones are left to the SDK, which reports them to
 *    the model as usual.
 * 2. `gateToolCalls` hooks see them all at once, before any is decided or
 *    runs (serially: a human is never asked by two racing prompts), and
 *    answer with one action per call.
 * 3. Each call, in the model's order, is resolved by the reducer over the
 *    gates' actions for it followed by the `beforeToolCall` handlers.
 *
 * Deny, guide and confirm become the approval statuses `toolApproval`
 * returns; a transform rewrites the call's input in the response itself, so
 * the history shows the arguments that actually ran.
 */
export async function decideToolCalls(
  run: InterventionsRun,
  response: LanguageModelV4GenerateResult,
): Promise<LanguageModelV4GenerateResult> {
  const calls: Array<{ readonly index: number; readonly call: ToolCallInfo; readonly tool: Tool }> = [];
  for (const [index, part] of response.content.entries()) {
    if (part.type !== 'tool-call' || part.providerExecuted === true) continue;
    const parsed = await parseToolCall(run, part);
    if (parsed === undefined) continue;
    calls.push({
      index,
      tool: parsed.tool,
      call: { toolCallId: part.toolCallId, toolName: part.toolName, input: parsed.input },
    });
  }
  if (calls.length === 0) return response;

  const gates =
    run.snapshot.hooks.gateToolCalls.length === 0 ? undefined : await gateToolCalls(run, calls.map(({ call }) => call));
  let content = response.content;
  for (const [position, { index, call, tool }] of calls.entries()) {
    const evaluation = run.evaluate({
      event: {
        lifecycle: 'beforeToolCall',
        runtimeContext: run.runtimeContext,
        runId: run.runId,
        abortSignal: run.abortSignal,
        stepNumber: run.stepNumber,
        toolCall: call,
        tool,
        messages: run.stepMessages,
        approved: false,
        approval: undefined,
      },
      makeDraft: cloneToolCallEvent,
      subject: run.subject(call),
      handlers: gates === undefined ? run.snapshot.handlers.beforeToolCall : [...(gates[position] ?? []), ...run.snapshot.handlers.beforeToolCall],
    });
    const verdict = isThenable(evaluation) ? await evaluation : evaluation;
    run.decided.add(call.toolCallId);
    const decision = run.approvalDecision(call, verdict);
    if (decision !== undefined) {
      run.toolDecisions.set(call.toolCallId, decision);
      if (decision.type === 'user-approval') {
        if (!run.signsApprovals) warnUnsignedOnce();
        await run.critical(() =>
          run.status({ type: 'approval-pending', toolCallId: call.toolCallId, toolName: call.toolName, prompt: decision.reason }),
        );
      }
    }

    if ((verdict.type === 'transform' || verdict.type === 'confirm') && verdict.transformed) {
      const input = JSON.stringify(verdict.event.toolCall.input);
      const part = content[index] as LanguageModelV4ToolCall;
      if (input !== JSON.stringify(call.input)) {
        if (content === response.content) content = [...content];
        content[index] = { ...part, input };
      }
    }
  }
  return content === response.content ? response : { ...response, content };
}

let warnedUnsigned = false;

/** Says once per process that approvals are not signed, and how to sign them. */
function warnUnsignedOnce(): void {
  if (warnedUnsigned) return;
  warnedUnsigned = true;
  console.warn(
    'ai-interventions: approval requests are not signed. Set `approvalSecret` in createInterventions ' +
      'so that a forged or edited tool-approval-response cannot run a tool.',
  );
}

/**
 * Runs the `gateToolCalls` hooks over a turn's calls and returns, per call,
 * the gates' actions as handlers the reducer evaluates first (named after the
 * hook, so records say which gate decided).
 */
export async function gateToolCalls(
  run: InterventionsRun,
  calls: readonly ToolCallInfo[],
): Promise<RegisteredHandler[][]> {
  const gates = run.snapshot.hooks.gateToolCalls;
  const perCall: RegisteredHandler[][] = calls.map(() => []);
  for (const { hook, label } of gates) {
    const actions: unknown = await run.critical(() =>
      Promise.resolve(
        hook({
          calls,
          messages: run.stepMessages,
          stepNumber: run.stepNumber,
          runtimeContext: run.runtimeContext,
          runId: run.runId,
          abortSignal: run.abortSignal,
        }),
      ),
    );
    if (!Array.isArray(actions) || actions.length !== calls.length) {
      const error = new InvalidHookResultError({
        hook: label,
        received: actions,
        expected: `an array of ${calls.length} actions, one per call, in the order of the calls`,
      });
      run.fail(error);
      throw error;
    }
    actions.forEach((action: unknown, position) => {
      perCall[position]?.push({
        name: label,
        onError: 'throw',
        timeoutMs: undefined,
        mode: 'enforce',
        tools: undefined,
        handler: { name: label, beforeToolCall: () => action as never },
      });
    });
  }
  return perCall;
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
  const text = part.input.trim();
  const standard = standardOf(tool.inputSchema);
  // the common case (plain JSON, a Standard Schema such as zod): no extra promises
  if (standard !== undefined && !PROTOTYPE_KEYS.test(text)) {
    let value: unknown;
    try {
      value = text === '' ? {} : JSON.parse(text);
    } catch {
      return undefined;
    }
    const result = standard.validate(value);
    const settled = isThenable(result) ? await result : result;
    return settled.issues === undefined ? { tool, input: settled.value } : undefined;
  }
  const schema = asSchema(tool.inputSchema);
  const parsed =
    text === ''
      ? await safeValidateTypes({ value: {}, schema })
      : await safeParseJSON({ text: part.input, schema });
  return parsed.success ? { tool, input: parsed.value } : undefined;
}

/** Keys the SDK's JSON parser refuses: such input takes the SDK's own (slower) path. */
const PROTOTYPE_KEYS = /__proto__|constructor/;

type StandardValidate = (
  value: unknown,
) =>
  | { readonly value?: unknown; readonly issues?: unknown }
  | PromiseLike<{ readonly value?: unknown; readonly issues?: unknown }>;

/** The Standard Schema side of a tool's input schema (zod, valibot, arktype…), if it has one. */
function standardOf(schema: unknown): { readonly validate: StandardValidate } | undefined {
  if (schema === null || typeof schema !== 'object' || !('~standard' in schema)) return undefined;
  const standard = (schema as { readonly '~standard'?: { readonly validate?: unknown } })['~standard'];
  return typeof standard?.validate === 'function' ? (standard as { readonly validate: StandardValidate }) : undefined;
}
