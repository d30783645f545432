import type { LanguageModelV4GenerateResult, LanguageModelV4ToolCall } from '@ai-sdk/provider';
import type { ToolCallInfo } from '../handlers/intervention-events.ts';
import { decideToolCall } from './decide-tool-call.ts';
import { gateToolCalls } from './gate-tool-calls.ts';
import type { Run } from './run.ts';
import { parseToolCall } from './parse-tool-call.ts';
import { decidedInput } from './tool-call-decision.ts';

/**
 * Decides the client tool calls of one model response, before the SDK sees
 * it: the well-formed calls (known, active tool, valid input) meet the
 * `gateToolCalls` hooks together, then each is decided in the model's order.
 * Malformed calls are left to the SDK, which reports them to the model. A
 * transformed input is written into the response's tool call, so the history
 * shows the arguments that run and the SDK validates them again.
 */
export async function decideTurn(
  run: Run,
  response: LanguageModelV4GenerateResult,
): Promise<LanguageModelV4GenerateResult> {
  const step = run.step;
  const indexes: number[] = [];
  const calls: ToolCallInfo[] = [];
  for (const [index, part] of response.content.entries()) {
    if (part.type !== 'tool-call' || part.providerExecuted === true) continue;
    const parsed = await parseToolCall(part, run.tools, step.activeTools);
    if (parsed === undefined) continue;
    indexes.push(index);
    calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: parsed.input });
  }
  if (calls.length === 0) return response;

  const gates = run.snapshot.hooks.gateToolCalls.length === 0 ? undefined : await gateToolCalls(run, step, calls);
  let content = response.content;
  for (const [position, call] of calls.entries()) {
    const decision = await decideToolCall(run, step, call, { gates: gates?.[position] });
    const input = decidedInput(decision);
    if (input === undefined) continue;
    const index = indexes[position] as number;
    const part = content[index] as LanguageModelV4ToolCall;
    const text = JSON.stringify(input.value);
    if (text === JSON.stringify(call.input)) continue;
    if (content === response.content) content = [...content];
    content[index] = { ...part, input: text };
  }
  return content === response.content ? response : { ...response, content };
}
