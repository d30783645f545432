import type { LanguageModelV4StreamPart, LanguageModelV4ToolCall } from '@ai-sdk/provider';
import { isThenable } from '../util/is-thenable.ts';
import { StreamedCallIds } from './unique-tool-call-ids.ts';

type Part = LanguageModelV4StreamPart;
type Calls = readonly LanguageModelV4ToolCall[];

/** How {@link holdToolCalls} has the run decide the calls it holds. */
export interface HeldCallsDecider {
  /**
   * `true`: the turn's calls are decided together, at the provider's finish
   * (gates see the turn); `false`: each call as soon as its `tool-call` part
   * comes.
   */
  readonly together: boolean;
  /** The calls as decided, index-aligned (the same object for a call nothing changed). */
  readonly decide: (calls: Calls) => Calls | Promise<Calls>;
}

/**
 * The one pass a streamed step takes when the run decides tool calls in the
 * model layer, before the SDK parses them:
 *
 * - every client call gets an id of its own: a call repeating an id the
 *   stream already gave is renamed (`<id>-2`, …) on all its parts
 *   (`StreamedCallIds`);
 * - a call is held from its first part (`tool-input-start`, or its
 *   `tool-call`) until it is decided, so no argument reaches the client
 *   before its call is decided; what comes meanwhile is held behind it, so
 *   the order stays the provider's. Each call is decided as soon as its
 *   `tool-call` comes (the SDK's own approval point: its tools run at the
 *   step's end either way), or, when `together`, the turn from its first call
 *   until the provider finishes;
 * - what was held is released in the provider's order: unchanged parts as
 *   they came; for a call whose arguments a decision changed, its argument
 *   deltas become one delta of the new arguments and its `tool-call` carries
 *   them; a call the decision wrote provider metadata into (a listing label)
 *   is released with it.
 *
 * If deciding fails, the held parts are dropped and the stream ends with an
 * `error` part carrying the failure, as a provider reports one. A provider
 * stream that finishes, ends or throws while parts are held releases them
 * (each decided call as decided; a call whose `tool-call` never came as it
 * came: it runs nothing), then goes on or ends the same way.
 *
 * It reads the provider's stream only when its own reader asks (no read
 * ahead), and is one plain readable stream, not a transform: the cheapest
 * layer Node's web streams have.
 */
export function holdToolCalls(stream: ReadableStream<Part>, decider: HeldCallsDecider): ReadableStream<Part> {
  return new ReadableStream<Part>(new Hold(stream.getReader(), decider), { highWaterMark: 0 });
}

/** A call a decision changed: the call as decided, and its new input text when the input changed. */
interface Changed {
  readonly call: LanguageModelV4ToolCall;
  readonly input: string | undefined;
}

/** The source of {@link holdToolCalls}' stream. */
class Hold implements UnderlyingDefaultSource<Part> {
  private readonly reader: ReadableStreamDefaultReader<Part>;
  private readonly decider: HeldCallsDecider;
  private controller!: ReadableStreamDefaultController<Part>;
  private readonly ids = new StreamedCallIds();
  /** What is held since the first undecided call's first part. */
  private held: Part[] | undefined;
  /** Calls decided with a change while held, by id. */
  private changed: Map<string, Changed> | undefined;
  /** What the provider's stream threw, raised once the held parts are read (erroring drops queued parts). */
  private thrown: { readonly error: unknown } | undefined;
  /** A read of the provider's stream is under way; `again`: the reader asked for more meanwhile. */
  private reading = false;
  private again = false;
  /** The reader cancelled the stream (the caller aborted): a read or decision that settles later passes nothing on. */
  private cancelled = false;
  private readonly onRead = (next: ReadableStreamReadResult<Part>): void | Promise<void> => this.take(next);
  private readonly onThrow = (error: unknown): void => this.failed(error);

  constructor(reader: ReadableStreamDefaultReader<Part>, decider: HeldCallsDecider) {
    this.reader = reader;
    this.decider = decider;
  }

  start(controller: ReadableStreamDefaultController<Part>): void {
    this.controller = controller;
  }

  /** The reader wants a part: read the provider's next one (unless a read is under way). */
  pull(): void {
    if (this.thrown !== undefined) {
      this.controller.error(this.thrown.error);
      return;
    }
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    this.read();
  }

  /** Something was passed on: read on if the reader asked for more meanwhile, else wait for its next pull. */
  private passed(): void {
    if (this.again) {
      this.again = false;
      this.read();
    } else this.reading = false;
  }

  cancel(reason: unknown): Promise<void> {
    this.cancelled = true;
    return this.reader.cancel(reason);
  }

  private read(): void {
    this.reader.read().then(this.onRead, this.onThrow);
  }

  /** One provider part: passed on (then wait for the next pull), or held (then read on at once). */
  private take(next: ReadableStreamReadResult<Part>): void | Promise<void> {
    if (this.cancelled) return; // the provider's stream ended or went on after the reader cancelled: nothing to pass on
    if (next.done) {
      this.release();
      this.controller.close();
      return;
    }
    const part = this.ids.name(next.value);
    const released = this.decider.together ? this.together(part) : this.eachCall(part);
    if (!isThenable(released)) return this.went(released);
    return Promise.resolve(released).then((settled) => this.went(settled));
  }

  /** After a part: `released` something (wait for the reader), or held it (read on). */
  private went(released: boolean): void {
    if (released) this.passed();
    else this.read();
  }

  /** Each call decided as its `tool-call` comes: `true` when something was released, `false` when held. */
  private eachCall(part: Part): boolean | Promise<boolean> {
    if (part.type === 'tool-input-start' && part.providerExecuted !== true) {
      (this.held ??= []).push(part);
      return false;
    }
    if (part.type === 'tool-call' && part.providerExecuted !== true) {
      if (this.held === undefined) return this.decideAlone(part);
      this.held.push(part);
      const deciding = this.decideHeld(part);
      return isThenable(deciding) ? deciding.then(() => this.releaseIfClosed()) : this.releaseIfClosed();
    }
    if (this.held === undefined || part.type === 'finish') {
      if (part.type === 'finish') this.release();
      this.controller.enqueue(part);
      return true;
    }
    this.held.push(part);
    return false;
  }

  /** The turn decided together at the provider's finish: `true` when something was released, `false` when held. */
  private together(part: Part): boolean | Promise<boolean> {
    if (this.held === undefined) {
      if (!startsClientCall(part)) {
        this.controller.enqueue(part);
        return true;
      }
      this.held = [];
    }
    if (part.type !== 'finish') {
      this.held.push(part);
      return false;
    }
    const calls = this.held.filter(isClientCall);
    return this.decided(calls, (decided) => {
      this.note(calls, decided);
      this.release();
      this.controller.enqueue(part);
    });
  }

  /** A complete call with nothing held before it: decided, then passed on as decided. */
  private decideAlone(part: LanguageModelV4ToolCall): boolean | Promise<boolean> {
    return this.decided([part], (decided) => this.controller.enqueue(decided[0] ?? part));
  }

  /** A held call decided: its change (if any) is kept for the release. */
  private decideHeld(part: LanguageModelV4ToolCall): true | Promise<boolean> {
    const calls = [part];
    return this.decided(calls, (decided) => this.note(calls, decided));
  }

  /**
   * Runs `decide`, then `then` with the decided calls (`true`); a failure
   * drops the held parts and ends the stream with it (`false` after that is
   * never read: the stream is closed).
   */
  private decided(calls: Calls, then: (decided: Calls) => void): true | Promise<boolean> {
    let deciding: Calls | Promise<Calls>;
    try {
      deciding = this.decider.decide(calls);
    } catch (error) {
      return this.decisionFailed(error);
    }
    if (!isThenable(deciding)) {
      then(deciding);
      return true;
    }
    return Promise.resolve(deciding).then(
      (decided) => {
        if (!this.cancelled) then(decided);
        return true;
      },
      (error: unknown) => this.cancelled || this.decisionFailed(error),
    );
  }

  private decisionFailed(error: unknown): true {
    this.held = undefined;
    this.controller.enqueue({ type: 'error', error });
    this.controller.close();
    this.reader.cancel(error).catch(() => {});
    return true;
  }

  /** Releases what is held once no call is still streaming its arguments: `true` when released. */
  private releaseIfClosed(): boolean {
    if (this.held === undefined) return true; // a failed decision closed the stream
    if (this.ids.streaming.size > 0) return false;
    this.release();
    return true;
  }

  private note(calls: Calls, decided: Calls): void {
    decided.forEach((call, index) => {
      const held = calls[index];
      if (call === held) return;
      (this.changed ??= new Map()).set(call.toolCallId, { call, input: call.input === held?.input ? undefined : call.input });
    });
  }

  /** Releases the held parts, each changed call as decided. */
  private release(): void {
    const parts = this.held ?? [];
    const changed = this.changed;
    this.held = undefined;
    this.changed = undefined;
    if (changed === undefined) {
      for (const part of parts) this.controller.enqueue(part);
      return;
    }
    for (const part of parts) {
      switch (part.type) {
        case 'tool-input-delta':
          if (changed.get(part.id)?.input === undefined) this.controller.enqueue(part);
          break;
        case 'tool-input-end': {
          const input = changed.get(part.id)?.input;
          if (input !== undefined) this.controller.enqueue({ type: 'tool-input-delta', id: part.id, delta: input });
          this.controller.enqueue(part);
          break;
        }
        case 'tool-call':
          this.controller.enqueue(changed.get(part.toolCallId)?.call ?? part);
          break;
        default:
          this.controller.enqueue(part);
      }
    }
  }

  private failed(error: unknown): void {
    if (this.cancelled) return;
    if (this.held === undefined || this.held.length === 0) {
      this.controller.error(error);
      return;
    }
    this.release();
    this.thrown = { error };
    this.reading = false;
    this.again = false;
  }
}

function startsClientCall(part: Part): boolean {
  return (part.type === 'tool-input-start' || part.type === 'tool-call') && part.providerExecuted !== true;
}

function isClientCall(part: Part): part is LanguageModelV4ToolCall {
  return part.type === 'tool-call' && part.providerExecuted !== true;
}
