import type { LanguageModelV4GenerateResult, LanguageModelV4ToolCall } from '@ai-sdk/provider';
import type { ToolCallInfo } from '../handlers/intervention-events.ts';
import type { Run } from '../run/run.ts';
import { isThenable } from '../util/is-thenable.ts';
import { decideToolCall } from './decide-tool-call.ts';
import { gateToolCalls } from './gate-tool-calls.ts';
import { parseToolCall } from './parse-tool-call.ts';
import { decidedInput } from './tool-call-decision.ts';

const NO_GATES = Object.freeze({});

/** The model layer's decisions on a response's tool calls: {@link decideTurn}, a throw ending the run. */
export function decideToolCalls(run: Run, response: LanguageModelV4GenerateResult): Promise<LanguageModelV4GenerateResult> {
  return decideTurn(run, response).catch((error: unknown) => {
    run.fail(error);
    throw error;
  });
}

/**
 * Decides the client tool calls of one model response, before the SDK sees
 * it: the well-formed calls (known, active tool, valid input) meet the
 * `gateToolCalls` hooks together, then each is decided in the model's order.
 * Malformed calls are left to the SDK, which reports them to the model (or
 * repairs them: a repaired call is decided in `toolApproval`). A transformed
 * input is written into the response's tool call, before the SDK parses it,
 * so the history shows the arguments that run, the SDK validates them again,
 * and an approval asked about them records them as the model's input (a
 * resumed approval is checked against it): the human approves what runs.
 */
export async function decideTurn(run: Run, response: LanguageModelV4GenerateResult): Promise<LanguageModelV4GenerateResult> {
  const step = run.step;
  const parts = response.content;
  const indexes: number[] = [];
  const calls: ToolCallInfo[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as LanguageModelV4GenerateResult['content'][number];
    if (part.type !== 'tool-call' || part.providerExecuted === true) continue;
    const parsing = parseToolCall(part, run.tools, step.activeTools);
    const parsed = isThenable(parsing) ? await parsing : parsing;
    if (parsed === undefined) continue;
    indexes.push(index);
    calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: parsed.input });
  }
  if (calls.length === 0) return response;

  const gates = run.snapshot.hooks.gateToolCalls.length === 0 ? undefined : await gateToolCalls(run, step, calls);
  let content = parts;
  for (let position = 0; position < calls.length; position++) {
    const call = calls[position] as ToolCallInfo;
    const deciding = decideToolCall(run, step, call, gates === undefined ? NO_GATES : { gates: gates[position] });
    const decision = isThenable(deciding) ? await deciding : deciding;
    step.write(call, decision);
    const input = decidedInput(decision);
    if (input === undefined) continue;
    const index = indexes[position] as number;
    const part = content[index] as LanguageModelV4ToolCall;
    const text = JSON.stringify(input.value);
    if (text === JSON.stringify(call.input)) continue;
    if (content === parts) content = [...content];
    content[index] = { ...part, input: text };
  }
  return content === parts ? response : { ...response, content };
}
