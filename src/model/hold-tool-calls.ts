import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolCall,
} from '@ai-sdk/provider';

type Part = LanguageModelV4StreamPart;

/**
 * Holds a stream from its first client tool call (or that call's first
 * argument part) until the provider finishes, then decides the turn's calls
 * together (`decide`, with the calls as a response) and releases what it held
 * in the provider's order: unchanged parts as they came; for a call whose
 * arguments a decision changed, its argument deltas become one delta of the
 * new arguments and its `tool-call` carries them. Everything before the
 * first call streams without delay.
 *
 * If deciding fails, the held parts are dropped and the stream ends with an
 * `error` part carrying the failure, as a provider reports one.
 */
export function holdToolCalls(
  decide: (response: LanguageModelV4GenerateResult) => Promise<LanguageModelV4GenerateResult>,
): TransformStream<Part, Part> {
  let held: Part[] | undefined;
  return new TransformStream<Part, Part>({
    async transform(part, controller) {
      if (held === undefined) {
        if (!startsClientCall(part)) {
          controller.enqueue(part);
          return;
        }
        held = [];
      }
      if (part.type !== 'finish') {
        held.push(part);
        return;
      }
      const parts = held;
      held = undefined;
      const calls = parts.filter(isClientCall);
      let inputs: ReadonlyMap<string, string>;
      try {
        const decided = await decide({ content: calls, finishReason: part.finishReason, usage: part.usage, warnings: [] });
        inputs = changedInputs(calls, decided);
      } catch (error) {
        controller.enqueue({ type: 'error', error });
        controller.terminate();
        return;
      }
      for (const released of release(parts, inputs)) controller.enqueue(released);
      controller.enqueue(part);
    },
    flush(controller) {
      // the provider ended without finishing: release as it came (the SDK decides what to do)
      for (const part of held ?? []) controller.enqueue(part);
    },
  });
}

function startsClientCall(part: Part): boolean {
  return (part.type === 'tool-input-start' || part.type === 'tool-call') && part.providerExecuted !== true;
}

function isClientCall(part: Part): part is LanguageModelV4ToolCall {
  return part.type === 'tool-call' && part.providerExecuted !== true;
}

/** The new input text of every call the decision changed, by call id. */
function changedInputs(
  calls: readonly LanguageModelV4ToolCall[],
  decided: LanguageModelV4GenerateResult,
): ReadonlyMap<string, string> {
  const inputs = new Map<string, string>();
  decided.content.forEach((part, index) => {
    if (part.type === 'tool-call' && part.input !== calls[index]?.input) inputs.set(part.toolCallId, part.input);
  });
  return inputs;
}

function* release(parts: readonly Part[], inputs: ReadonlyMap<string, string>): Generator<Part> {
  if (inputs.size === 0) {
    yield* parts;
    return;
  }
  for (const part of parts) {
    switch (part.type) {
      case 'tool-input-delta':
        if (!inputs.has(part.id)) yield part;
        break;
      case 'tool-input-end': {
        const input = inputs.get(part.id);
        if (input !== undefined) yield { type: 'tool-input-delta', id: part.id, delta: input };
        yield part;
        break;
      }
      case 'tool-call': {
        const input = inputs.get(part.toolCallId);
        yield input === undefined ? part : { ...part, input };
        break;
      }
      default:
        yield part;
    }
  }
}
