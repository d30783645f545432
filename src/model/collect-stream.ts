import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';

/** Marks a part that belongs to no content item (stream-start, metadata, raw, finish…). */
export const FRAME = -1;

/**
 * A provider stream read to its end: its own parts, in order, and for each
 * part the index of the content item it belongs to (or {@link FRAME}).
 */
export type CollectedStream =
  | {
      readonly ok: true;
      readonly parts: readonly LanguageModelV4StreamPart[];
      readonly owners: readonly number[];
      /** The whole response the parts describe, for hooks that work on responses. */
      readonly response: LanguageModelV4GenerateResult;
    }
  | {
      /** The stream carried an `error` part, did not finish, or threw (`thrown`): replay it as it came. */
      readonly ok: false;
      readonly parts: readonly LanguageModelV4StreamPart[];
      readonly thrown: { readonly error: unknown } | undefined;
    };

/**
 * Reads a provider stream into the `LanguageModelV4GenerateResult` it
 * describes, so hooks that work on whole responses (`onResponse`,
 * `afterModelCall`) see the same shape for `generateText` and `streamText`,
 * and keeps every part so an unchanged response is released verbatim.
 */
export async function collectStream(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<CollectedStream> {
  const parts: LanguageModelV4StreamPart[] = [];
  const owners: number[] = [];
  const content: LanguageModelV4Content[] = [];
  const blocks = new Map<string, number>();
  const toolInputs = new Map<string, number[]>();
  const response: Partial<LanguageModelV4GenerateResult> = {};
  let failed = false;

  const add = (part: LanguageModelV4StreamPart, owner: number) => {
    parts.push(part);
    owners.push(owner);
  };
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case 'text-start':
        case 'reasoning-start': {
          const kind = part.type === 'text-start' ? 'text' : 'reasoning';
          blocks.set(`${kind}:${part.id}`, content.length);
          add(part, content.length);
          content.push({ type: kind, text: '', ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}) });
          break;
        }
        case 'text-delta':
        case 'reasoning-delta':
        case 'text-end':
        case 'reasoning-end': {
          const kind = part.type.startsWith('text') ? 'text' : 'reasoning';
          const index = blocks.get(`${kind}:${part.id}`);
          add(part, index ?? FRAME);
          const block = index === undefined ? undefined : (content[index] as { text: string; providerMetadata?: unknown });
          if (block === undefined) break;
          if (part.type === 'text-delta' || part.type === 'reasoning-delta') block.text += part.delta;
          if (part.providerMetadata !== undefined) block.providerMetadata = part.providerMetadata;
          break;
        }
        case 'tool-input-start':
        case 'tool-input-delta':
        case 'tool-input-end': {
          // owned by the tool call that follows with the same id
          const pending = toolInputs.get(part.id) ?? [];
          pending.push(parts.length);
          toolInputs.set(part.id, pending);
          add(part, FRAME);
          break;
        }
        case 'stream-start':
          response.warnings = part.warnings;
          add(part, FRAME);
          break;
        case 'response-metadata': {
          const { type: _type, ...metadata } = part;
          response.response = metadata;
          add(part, FRAME);
          break;
        }
        case 'finish':
          response.finishReason = part.finishReason;
          response.usage = part.usage;
          if (part.providerMetadata) response.providerMetadata = part.providerMetadata;
          add(part, FRAME);
          break;
        case 'error':
          failed = true;
          add(part, FRAME);
          break;
        case 'ping':
        case 'raw':
          add(part, FRAME);
          break;
        default: {
          // tool-call, tool-result, tool-approval-request, file, source, custom, reasoning-file
          if (part.type === 'tool-call') {
            for (const position of toolInputs.get(part.toolCallId) ?? []) owners[position] = content.length;
            toolInputs.delete(part.toolCallId);
          }
          add(part, content.length);
          content.push(part);
        }
      }
    }
  } catch (error) {
    return { ok: false, parts, thrown: { error } };
  } finally {
    reader.releaseLock();
  }

  if (failed || response.finishReason === undefined || response.usage === undefined) {
    return { ok: false, parts, thrown: undefined };
  }
  return {
    ok: true,
    parts,
    owners,
    response: {
      content,
      finishReason: response.finishReason,
      usage: response.usage,
      warnings: response.warnings ?? [],
      ...(response.providerMetadata ? { providerMetadata: response.providerMetadata } : {}),
      ...(response.response ? { response: response.response } : {}),
    },
  };
}
