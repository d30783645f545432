import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import type { Awaitable } from '../util/awaitable.ts';
import { step } from './step.ts';

/**
 * A scripted answer: a whole response (see `step`), a single part (`text`,
 * `toolCall`, …: a response of that part alone), an `Error` (the provider
 * call fails with it), or a function of the request returning any of these
 * (throwing fails the call).
 *
 * @example
 * ```ts
 * const turns: ScriptedTurn[] = [
 *   toolCall('call-1', 'search', { query: 'AI SDK' }),
 *   (request) => text(`I was sent ${request.prompt.length} messages.`),
 *   new Error('rate limited'),
 * ];
 * const model = scriptedModel(...turns);
 * ```
 */
export type ScriptedTurn =
  | LanguageModelV4GenerateResult
  | LanguageModelV4Content
  | Error
  | ((request: LanguageModelV4CallOptions, call: number) => Awaitable<LanguageModelV4GenerateResult | LanguageModelV4Content>);

/**
 * A `MockLanguageModelV4` that also lists every request it received, in
 * order, whether through `doGenerate` or `doStream`.
 *
 * @example
 * ```ts
 * const model: ScriptedModel = scriptedModel(text('hi'));
 * await interventions.generateText({ model, prompt: 'hello' });
 * expect(model.calls[0]?.prompt.at(-1)).toMatchObject({ role: 'user' });
 * ```
 */
export type ScriptedModel = MockLanguageModelV4 & {
  /** Every request, in order (generate and stream alike). */
  readonly calls: LanguageModelV4CallOptions[];
};

/**
 * A model for tests: its n-th call (generate or stream) answers with the
 * n-th turn; a call past the script fails with an error that says so. In a
 * stream, text and reasoning arrive one word per delta and tool arguments
 * as `tool-input-*` parts before the call, as a provider sends them.
 *
 * @example
 * ```ts
 * const model = scriptedModel(
 *   step(text('Checking.'), toolCall('call-1', 'get_weather', { city: 'Paris' })),
 *   text('It is 21°C in Paris.'),
 * );
 * const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Weather?' });
 * expect(model.calls).toHaveLength(2);
 * expect(model.calls[1]?.prompt.at(-1)?.role).toBe('tool'); // the model read the tool result
 * ```
 */
export function scriptedModel(...turns: ScriptedTurn[]): ScriptedModel {
  const calls: LanguageModelV4CallOptions[] = [];
  const answer = async (request: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
    calls.push(request);
    const index = calls.length - 1;
    const turn = turns[index];
    if (turn === undefined) {
      throw new Error(`scriptedModel: no turn scripted for call ${index + 1} (the script has ${turns.length})`);
    }
    if (turn instanceof Error) throw turn;
    return asResponse(typeof turn === 'function' ? await turn(request, index) : turn);
  };
  const model = new MockLanguageModelV4({
    doGenerate: answer,
    doStream: async (request) => {
      const parts = streamParts(await answer(request));
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return Object.assign(model, { calls });
}

function asResponse(turn: LanguageModelV4GenerateResult | LanguageModelV4Content): LanguageModelV4GenerateResult {
  return 'type' in turn ? step(turn) : turn;
}

/** The stream parts of a response, as a provider streams it. */
function streamParts(response: LanguageModelV4GenerateResult): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: response.warnings }];
  if (response.response !== undefined) {
    const { headers: _headers, body: _body, ...metadata } = response.response;
    parts.push({ type: 'response-metadata', ...metadata });
  }
  response.content.forEach((part, index) => {
    const id = `${part.type}-${index}`;
    switch (part.type) {
      case 'text':
      case 'reasoning': {
        const kind = part.type;
        const metadata = part.providerMetadata === undefined ? {} : { providerMetadata: part.providerMetadata };
        parts.push({ type: `${kind}-start`, id, ...metadata });
        for (const word of part.text.match(/\S+\s*|\s+/g) ?? []) parts.push({ type: `${kind}-delta`, id, delta: word });
        parts.push({ type: `${kind}-end`, id });
        break;
      }
      case 'tool-call':
        parts.push(
          {
            type: 'tool-input-start',
            id: part.toolCallId,
            toolName: part.toolName,
            ...(part.providerExecuted === undefined ? {} : { providerExecuted: part.providerExecuted }),
          },
          { type: 'tool-input-delta', id: part.toolCallId, delta: part.input },
          { type: 'tool-input-end', id: part.toolCallId },
          part,
        );
        break;
      default:
        parts.push(part);
    }
  });
  parts.push({
    type: 'finish',
    finishReason: response.finishReason,
    usage: response.usage,
    ...(response.providerMetadata === undefined ? {} : { providerMetadata: response.providerMetadata }),
  });
  return parts;
}
