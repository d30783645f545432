import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart, LanguageModelV4ToolCall } from '@ai-sdk/provider';

type Part = LanguageModelV4StreamPart;

/**
 * Holds a stream from its first client tool call (or that call's first
 * argument part) until the provider finishes, then decides the turn's calls
 * together (`decide`, with the calls as a response) and releases what it held
 * in the provider's order: unchanged parts as they came; for a call whose
 * arguments a decision changed, its argument deltas become one delta of the
 * new arguments and its `tool-call` carries them. Everything before the
 * first call streams without delay. A call the decision wrote provider
 * metadata into (a listing label) is released with it.
 *
 * If deciding fails, the held parts are dropped and the stream ends with an
 * `error` part carrying the failure, as a provider reports one. A provider
 * stream that ends or throws before finishing releases what was held as it
 * came (the run decides such calls when the SDK asks), then ends the same way.
 */
export function holdToolCalls(
  stream: ReadableStream<Part>,
  decide: (response: LanguageModelV4GenerateResult) => Promise<LanguageModelV4GenerateResult>,
): ReadableStream<Part> {
  const reader = stream.getReader();
  let held: Part[] | undefined;
  // what the provider's stream threw, raised once the held parts are read (erroring drops queued parts)
  let thrown: { readonly error: unknown } | undefined;
  return new ReadableStream<Part>({
    async pull(controller) {
      if (thrown !== undefined) {
        controller.error(thrown.error);
        return;
      }
      for (;;) {
        let next: ReadableStreamReadResult<Part>;
        try {
          next = await reader.read();
        } catch (error) {
          if (held === undefined || held.length === 0) {
            controller.error(error);
            return;
          }
          for (const part of held) controller.enqueue(part);
          held = undefined;
          thrown = { error };
          return;
        }
        if (next.done) {
          for (const part of held ?? []) controller.enqueue(part);
          held = undefined;
          controller.close();
          return;
        }
        const part = next.value;
        if (held === undefined) {
          if (!startsClientCall(part)) {
            controller.enqueue(part);
            return;
          }
          held = [];
        }
        if (part.type !== 'finish') {
          held.push(part);
          continue;
        }
        const parts = held;
        held = undefined;
        const calls = parts.filter(isClientCall);
        let changed: ReadonlyMap<string, Changed>;
        try {
          const decided = await decide({ content: calls, finishReason: part.finishReason, usage: part.usage, warnings: [] });
          changed = changedCalls(calls, decided);
        } catch (error) {
          controller.enqueue({ type: 'error', error });
          controller.close();
          await reader.cancel(error).catch(() => {});
          return;
        }
        for (const released of release(parts, changed)) controller.enqueue(released);
        controller.enqueue(part);
        return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function startsClientCall(part: Part): boolean {
  return (part.type === 'tool-input-start' || part.type === 'tool-call') && part.providerExecuted !== true;
}

function isClientCall(part: Part): part is LanguageModelV4ToolCall {
  return part.type === 'tool-call' && part.providerExecuted !== true;
}

/** A call a decision changed: the call as decided, and its new input text when the input changed. */
interface Changed {
  readonly call: LanguageModelV4ToolCall;
  readonly input: string | undefined;
}

/** Every call the decision changed (its input, or the provider metadata it carries), by call id. */
function changedCalls(calls: readonly LanguageModelV4ToolCall[], decided: LanguageModelV4GenerateResult): ReadonlyMap<string, Changed> {
  const changed = new Map<string, Changed>();
  decided.content.forEach((part, index) => {
    const held = calls[index];
    if (part.type === 'tool-call' && part !== held) {
      changed.set(part.toolCallId, { call: part, input: part.input === held?.input ? undefined : part.input });
    }
  });
  return changed;
}

/**
 * The held parts, with each changed call as decided: a changed input replaces
 * the call's argument deltas with one delta of the new arguments, and the
 * `tool-call` is the decided one (its input and provider metadata).
 */
function* release(parts: readonly Part[], changed: ReadonlyMap<string, Changed>): Generator<Part> {
  if (changed.size === 0) {
    yield* parts;
    return;
  }
  for (const part of parts) {
    switch (part.type) {
      case 'tool-input-delta':
        if (changed.get(part.id)?.input === undefined) yield part;
        break;
      case 'tool-input-end': {
        const input = changed.get(part.id)?.input;
        if (input !== undefined) yield { type: 'tool-input-delta', id: part.id, delta: input };
        yield part;
        break;
      }
      case 'tool-call':
        yield changed.get(part.toolCallId)?.call ?? part;
        break;
      default:
        yield part;
    }
  }
}
