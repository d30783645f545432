import type { LanguageModelV4GenerateResult, LanguageModelV4ToolCall } from '@ai-sdk/provider';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import type { Run } from '../run/run.ts';
import type { Step } from '../run/step.ts';
import { decidedInput, type ToolCallDecision } from '../run/tool-call-decision.ts';
import { isThenable } from '../util/is-thenable.ts';
import { decideToolCall } from './decide-tool-call.ts';
import { gateToolCalls } from './gate-tool-calls.ts';
import { type Parsed, parseToolCall } from './parse-tool-call.ts';

const NO_GATES = Object.freeze({});

type Response = LanguageModelV4GenerateResult;
type Content = Response['content'];

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
 * Synchronous while the parses, gates and handlers are; a throw ends the
 * run.
 */
export function decideTurn(run: Run, response: Response): Response | Promise<Response> {
  const decided = decideContent(run, response.content);
  if (!isThenable(decided)) return decided === response.content ? response : { ...response, content: decided };
  return decided.then((content) => (content === response.content ? response : { ...response, content }));
}

/**
 * The model layer's decisions on some tool calls of a streamed response,
 * as they come (`holdToolCalls`): the calls as decided, index-aligned (the
 * same array when nothing changed), a throw ending the run.
 */
export function decideStreamedCalls(
  run: Run,
  calls: readonly LanguageModelV4ToolCall[],
): readonly LanguageModelV4ToolCall[] | Promise<readonly LanguageModelV4ToolCall[]> {
  return decideContent(run, calls as Content) as readonly LanguageModelV4ToolCall[] | Promise<readonly LanguageModelV4ToolCall[]>;
}

function decideContent(run: Run, content: Content): Content | Promise<Content> {
  let decided: Content | Promise<Content>;
  try {
    decided = new Turn(run, content).parseFrom(0);
  } catch (error) {
    run.fail(error);
    throw error;
  }
  return isThenable(decided) ? failing(run, decided) : decided;
}

/** A decision under way whose throw ends the run (apart: the synchronous path allocates no closure). */
function failing(run: Run, deciding: Promise<Content>): Promise<Content> {
  return deciding.then(undefined, (error: unknown) => {
    run.fail(error);
    throw error;
  });
}

/** Some tool calls of one response (all of them, or those of a streamed response as they come) on their way to their decisions. */
class Turn {
  private readonly run: Run;
  /** The response's content (or part of it), as the model sent it. */
  private readonly parts: Content;
  private readonly step: Step;
  /** Each well-formed call, after where it sits in the content: `[index, call, index, call…]`, flat (made at the first: a step has one call, as a rule). */
  private found: (number | ToolCallInfo)[] | undefined;
  private gates: RegisteredHandler[][] | undefined;
  /** The content as decided (a copy once a decision changes a call). */
  private content: Content;

  constructor(run: Run, parts: Content) {
    this.run = run;
    this.parts = parts;
    this.step = run.step;
    this.content = parts;
  }

  /** Parses the calls from `index` on, then gates and decides them. */
  parseFrom(index: number): Content | Promise<Content> {
    const { parts } = this;
    for (; index < parts.length; index++) {
      const part = parts[index] as Content[number];
      if (part.type !== 'tool-call' || part.providerExecuted === true) continue;
      const parsing = parseToolCall(part, this.run.tools, this.step.activeTools);
      if (isThenable(parsing)) return this.parsedLater(index, part, parsing);
      this.add(index, part, parsing);
    }
    const { found } = this;
    if (found === undefined) return parts;
    if (this.run.snapshot.hooks.gateToolCalls.length === 0) return this.decideFrom(0);
    const calls = found.filter((_, at) => at % 2 === 1) as ToolCallInfo[];
    return gateToolCalls(this.run, this.step, calls).then((gates) => {
      this.gates = gates;
      return this.decideFrom(0);
    });
  }

  private parsedLater(index: number, part: LanguageModelV4ToolCall, parsing: Promise<Parsed | undefined>): Promise<Content> {
    return parsing.then((parsed) => {
      this.add(index, part, parsed);
      return this.parseFrom(index + 1);
    });
  }

  private add(index: number, part: LanguageModelV4ToolCall, parsed: Parsed | undefined): void {
    if (parsed === undefined) return;
    const call: ToolCallInfo = { toolCallId: part.toolCallId, toolName: part.toolName, input: parsed.value };
    if (this.found === undefined) this.found = [index, call];
    else this.found.push(index, call);
  }

  /** Decides the calls from `position` on, in the model's order, writing each decision into the step. */
  private decideFrom(position: number): Content | Promise<Content> {
    const found = this.found ?? [];
    for (; position < found.length / 2; position++) {
      const call = found[2 * position + 1] as ToolCallInfo;
      const gates = this.gates?.[position];
      const deciding = decideToolCall(this.run, this.step, call, gates === undefined ? NO_GATES : { gates });
      if (isThenable(deciding)) return this.decidedLater(position, call, deciding);
      this.write(position, call, deciding);
    }
    return this.content;
  }

  private decidedLater(position: number, call: ToolCallInfo, deciding: Promise<ToolCallDecision>): Promise<Content> {
    return deciding.then((decision) => {
      this.write(position, call, decision);
      return this.decideFrom(position + 1);
    });
  }

  /**
   * Writes a decision into the step, and into the response's tool call a
   * transformed input, and (on the run's first decided call) the listing of
   * its trusted tools, which the history then keeps (`ToolListings`).
   */
  private write(position: number, call: ToolCallInfo, decision: ToolCallDecision): void {
    this.step.write(call, decision);
    const label = this.run.listings?.takeLabel();
    const input = decidedInput(decision);
    let text = input === undefined ? undefined : JSON.stringify(input.value);
    if (text !== undefined && text === JSON.stringify(call.input)) text = undefined;
    if (text === undefined && label === undefined) return;
    const index = this.found?.[2 * position] as number;
    if (this.content === this.parts) this.content = [...this.content];
    const part = this.content[index] as LanguageModelV4ToolCall;
    this.content[index] = {
      ...part,
      ...(text === undefined ? {} : { input: text }),
      ...(label === undefined ? {} : { providerMetadata: { ...part.providerMetadata, ...label } }),
    };
  }
}
