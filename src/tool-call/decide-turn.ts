import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart, LanguageModelV4ToolCall } from '@ai-sdk/provider';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import { holdToolCalls } from '../model/hold-tool-calls.ts';
import { repeatsAnId } from '../model/repeats-an-id.ts';
import { uniqueToolCallIds } from '../model/unique-tool-call-ids.ts';
import { redactData } from '../redaction/redact-data.ts';
import type { Run } from '../run/run.ts';
import { decidedInput, type ToolCallDecision } from '../run/tool-call-decision.ts';
import { decisionOf } from './decision-of.ts';
import { gateToolCalls } from './gate-tool-calls.ts';
import { parseToolCall } from './parse-tool-call.ts';

type Response = LanguageModelV4GenerateResult;
type Content = Response['content'];

/**
 * A whole response as the SDK gets it from the model layer (`generateText`,
 * a step held whole, a `preRequest` hook's response): when the model layer
 * decides the run's tool calls (the run's `plan.holds`), each call gets an id
 * of its own and its turn is decided ({@link decideTurn}). Otherwise the
 * SDK's approval point decides them, and a `generateText` response
 * (`'generated'`) only gets an id of its own for each call that repeats one
 * (the SDK keys a step's approvals by id, and would run neither call of a
 * repeated id); a response the SDK gets as a stream (`'streamed'`) keeps its
 * ids, as a live step does: the approval point denies a second call with an
 * id.
 */
export async function decideResponse(run: Run, response: Response, as: 'streamed' | 'generated' = 'generated'): Promise<Response> {
  if (!run.plan.holds) {
    if (as === 'streamed' || !run.plan.decides || !repeatsAnId(response.content)) return response;
    return uniqueToolCallIds(response);
  }
  const unique = uniqueToolCallIds(response);
  const content = await decideTurn(run, unique.content);
  return content === unique.content ? unique : { ...unique, content };
}

/**
 * A live step's tool calls held until the model layer decides them (see
 * `plan.holds`): each as its `tool-call` part comes, or the turn at
 * the provider's finish when `gateToolCalls` hooks must see it whole.
 */
export function holdCalls(run: Run, stream: ReadableStream<LanguageModelV4StreamPart>): ReadableStream<LanguageModelV4StreamPart> {
  return holdToolCalls(stream, {
    together: run.plan.withTurn,
    decide: (calls) => decideTurn(run, calls as Content) as Promise<readonly LanguageModelV4ToolCall[]>,
  });
}

/**
 * Decides the client tool calls of a turn (a response's content, or the
 * calls a streamed step holds), before the SDK sees them: each well-formed
 * call (known, active tool, valid input: parsed as the SDK will parse it)
 * is asked of the owner of its decision (`decisionOf`), after the turn's
 * calls met the `gateToolCalls` hooks together. Malformed calls are left to
 * the SDK, which reports them to the model (or repairs them: a repaired call
 * is decided at the approval point). A transformed input is written into
 * the call, before the SDK parses it, so the history shows the arguments
 * that run, the SDK validates them again, and an approval asked about them
 * records them as the model's input: the human approves what runs. The
 * run's first decided call carries the listing of its trusted tools. The
 * same content comes back when nothing changed; a throw ends the run.
 */
export async function decideTurn(run: Run, content: Content): Promise<Content> {
  const step = run.step;
  try {
    const found: { readonly index: number; readonly call: ToolCallInfo }[] = [];
    for (let index = 0; index < content.length; index++) {
      const part = content[index] as Content[number];
      if (part.type !== 'tool-call' || part.providerExecuted === true) continue;
      const parsed = await parseToolCall(part, run.tools, step.activeTools);
      if (parsed !== undefined) found.push({ index, call: { toolCallId: part.toolCallId, toolName: part.toolName, input: parsed.value } });
    }
    if (found.length === 0) return content;
    const gates =
      run.snapshot.hooks.gateToolCalls.length === 0
        ? undefined
        : await gateToolCalls(
            run,
            step,
            found.map(({ call }) => call),
          );
    let decided = content;
    for (const [position, { index, call }] of found.entries()) {
      const decision = await decisionOf(run, step, call, { applies: false, gates: gates?.[position] });
      const part = written(run, decided[index] as LanguageModelV4ToolCall, call, decision);
      if (part === undefined) continue;
      if (decided === content) decided = [...content];
      decided[index] = part;
    }
    return decided;
  } catch (error) {
    run.fail(error);
    throw error;
  }
}

/**
 * The call as the SDK is given it, when its decision changes it: a
 * transformed input; a call that does not run with its arguments as people
 * may see them (a deny stops the handlers before a redacting transform
 * would run: the registered redaction rules still apply to what reaches the
 * UI and the history); and (on the run's first decided call) the listing of
 * its trusted tools, which the history then keeps (`ToolListings`).
 */
function written(
  run: Run,
  part: LanguageModelV4ToolCall,
  call: ToolCallInfo,
  decision: ToolCallDecision,
): LanguageModelV4ToolCall | undefined {
  const label = run.listings?.takeLabel();
  const redact = run.snapshot.handlers.forPeople;
  // a call that does not run: its arguments as every registered redaction rule leaves them
  const shown =
    redact !== undefined && (decision.type === 'deny' || decision.type === 'guide') ? redactData(call.input, redact) : call.input;
  const input = decidedInput(decision) ?? (shown === call.input ? undefined : { value: shown });
  let text = input === undefined ? undefined : JSON.stringify(input.value);
  if (text !== undefined && text === JSON.stringify(call.input)) text = undefined;
  if (text === undefined && label === undefined) return undefined;
  return {
    ...part,
    ...(text === undefined ? {} : { input: text }),
    ...(label === undefined ? {} : { providerMetadata: { ...part.providerMetadata, ...label } }),
  };
}
