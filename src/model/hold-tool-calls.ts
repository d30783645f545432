import type { LanguageModelV4StreamPart, LanguageModelV4ToolCall } from '@ai-sdk/provider';
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
 *   ({@link StreamedCallIds});
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
 * The provider's stream is read only when this stream's reader asks, and
 * then only until something can be passed on (no read-ahead). A reader that
 * cancels cancels the provider's stream, and a read or decision under way
 * then passes nothing on: this stream is closed, so what it would pass on
 * throws into the pull's own promise, which the platform drops. (Not a
 * `TransformStream`: its readable side errors as soon as the provider's
 * stream throws, dropping what is held.)
 */
export function holdToolCalls(stream: ReadableStream<Part>, { together, decide }: HeldCallsDecider): ReadableStream<Part> {
  const reader = stream.getReader();
  const ids = new StreamedCallIds();
  /** What is held since the first undecided call's first part. */
  let held: Part[] | undefined;
  /** Each held call a decision changed, by id: the call as decided, and its new input text when the input changed. */
  let changed: Map<string, { readonly call: LanguageModelV4ToolCall; readonly input: string | undefined }> | undefined;
  /** What the provider's stream threw after parts were released, raised at the next pull (erroring drops queued parts). */
  let thrown: { readonly error: unknown } | undefined;

  /** Decides `calls` and notes what changed; `false` when deciding failed (the stream then ends with it). */
  async function decided(controller: ReadableStreamDefaultController<Part>, calls: Calls): Promise<boolean> {
    let decisions: Calls;
    try {
      decisions = await decide(calls);
    } catch (error) {
      held = undefined;
      controller.enqueue({ type: 'error', error });
      controller.close();
      reader.cancel(error).catch(() => {});
      return false;
    }
    for (let index = 0; index < decisions.length; index++) {
      const call = decisions[index] as LanguageModelV4ToolCall;
      const before = calls[index];
      if (call === before) continue;
      (changed ??= new Map()).set(call.toolCallId, { call, input: call.input === before?.input ? undefined : call.input });
    }
    return true;
  }

  /** Passes on what is held, each changed call as decided. */
  function release(controller: ReadableStreamDefaultController<Part>): void {
    for (const part of held ?? []) {
      switch (part.type) {
        case 'tool-input-delta':
          if (changed?.get(part.id)?.input === undefined) controller.enqueue(part);
          break;
        case 'tool-input-end': {
          const input = changed?.get(part.id)?.input;
          if (input !== undefined) controller.enqueue({ type: 'tool-input-delta', id: part.id, delta: input });
          controller.enqueue(part);
          break;
        }
        case 'tool-call':
          controller.enqueue(changed?.get(part.toolCallId)?.call ?? part);
          break;
        default:
          controller.enqueue(part);
      }
    }
    held = undefined;
    changed = undefined;
  }

  return new ReadableStream<Part>(
    {
      async pull(controller) {
        if (thrown !== undefined) {
          controller.error(thrown.error);
          return;
        }
        // read until something is passed on: the reader asked for one part
        for (;;) {
          let next: ReadableStreamReadResult<Part>;
          try {
            next = await reader.read();
          } catch (error) {
            if (held === undefined) controller.error(error);
            else {
              release(controller);
              thrown = { error };
            }
            return;
          }
          if (next.done) {
            release(controller);
            controller.close();
            return;
          }
          // only a tool part has an id to name
          const part = next.value.type.startsWith('tool-') ? ids.name(next.value) : next.value;
          if (held === undefined) {
            if ((part.type !== 'tool-input-start' && part.type !== 'tool-call') || part.providerExecuted === true) {
              controller.enqueue(part);
              return;
            }
            held = [];
          }
          if (part.type === 'finish') {
            if (together && !(await decided(controller, held.filter(isClientCall)))) return;
            release(controller);
            controller.enqueue(part);
            return;
          }
          held.push(part);
          if (together || part.type !== 'tool-call' || part.providerExecuted === true) continue;
          if (!(await decided(controller, [part]))) return;
          // what is held goes once no call is still streaming its arguments
          if (ids.streaming.size === 0) {
            release(controller);
            return;
          }
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

function isClientCall(part: Part): part is LanguageModelV4ToolCall {
  return part.type === 'tool-call' && part.providerExecuted !== true;
}
