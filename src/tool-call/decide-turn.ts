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

/**
 * The model layer's decisions on a response's tool calls: {@link decideTurn},
 * a throw ending the run. Synchronous when every parse and decision is.
 */
export function decideToolCalls(run: Run, response: Response): Response | Promise<Response> {
  const failed = (error: unknown): never => {
    run.fail(error);
    throw error;
  };
  let decided: Response | Promise<Response>;
  try {
    decided = decideTurn(run, response);
  } catch (error) {
    return failed(error);
  }
  return isThenable(decided) ? decided.then(undefined, failed) : decided;
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
 * Synchronous while the parses, gates and handlers are.
 */
export function decideTurn(run: Run, response: Response): Response | Promise<Response> {
  return new Turn(run, response).parseFrom(0);
}

/** One response's tool calls on their way to their decisions. */
class Turn {
  private readonly run: Run;
  private readonly response: Response;
  private readonly step: Step;
  /** Where each well-formed call sits in the response's content. */
  private readonly indexes: number[] = [];
  private readonly calls: ToolCallInfo[] = [];
  private gates: RegisteredHandler[][] | undefined;
  private content: Response['content'];

  constructor(run: Run, response: Response) {
    this.run = run;
    this.response = response;
    this.step = run.step;
    this.content = response.content;
  }

  /** Parses the calls from `index` on, then gates and decides them. */
  parseFrom(index: number): Response | Promise<Response> {
    const parts = this.response.content;
    for (; index < parts.length; index++) {
      const part = parts[index] as Response['content'][number];
      if (part.type !== 'tool-call' || part.providerExecuted === true) continue;
      const parsing = parseToolCall(part, this.run.tools, this.step.activeTools);
      if (isThenable(parsing)) {
        const at = index;
        return parsing.then((parsed) => {
          this.add(at, part, parsed);
          return this.parseFrom(at + 1);
        });
      }
      this.add(index, part, parsing);
    }
    if (this.calls.length === 0) return this.response;
    if (this.run.snapshot.hooks.gateToolCalls.length === 0) return this.decideFrom(0);
    return gateToolCalls(this.run, this.step, this.calls).then((gates) => {
      this.gates = gates;
      return this.decideFrom(0);
    });
  }

  private add(index: number, part: LanguageModelV4ToolCall, parsed: Parsed | undefined): void {
    if (parsed === undefined) return;
    this.indexes.push(index);
    this.calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: parsed.input });
  }

  /** Decides the calls from `position` on, in the model's order, writing each decision into the step. */
  private decideFrom(position: number): Response | Promise<Response> {
    for (; position < this.calls.length; position++) {
      const call = this.calls[position] as ToolCallInfo;
      const gates = this.gates?.[position];
      const deciding = decideToolCall(this.run, this.step, call, gates === undefined ? NO_GATES : { gates });
      if (isThenable(deciding)) {
        const at = position;
        return deciding.then((decision) => {
          this.write(at, call, decision);
          return this.decideFrom(at + 1);
        });
      }
      this.write(position, call, deciding);
    }
    return this.content === this.response.content ? this.response : { ...this.response, content: this.content };
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
    if (text === JSON.stringify(call.input)) text = undefined;
    if (text === undefined && label === undefined) return;
    const index = this.indexes[position] as number;
    if (this.content === this.response.content) this.content = [...this.content];
    const part = this.content[index] as LanguageModelV4ToolCall;
    this.content[index] = {
      ...part,
      ...(text === undefined ? {} : { input: text }),
      ...(label === undefined ? {} : { providerMetadata: { ...part.providerMetadata, ...label } }),
    };
  }
}
