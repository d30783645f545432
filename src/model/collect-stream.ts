import type { LanguageModelV4Content, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';

/** A provider stream read to its end: its own parts, in order. */
export type CollectedStream =
  | {
      readonly ok: true;
      readonly parts: readonly LanguageModelV4StreamPart[];
      /** The whole response the parts describe, for hooks that work on responses. */
      readonly response: LanguageModelV4GenerateResult;
      /**
       * The provider's stream after its `finish` part, not read yet (its end,
       * as a rule): passed on as it comes once the parts are released.
       */
      readonly rest: ReadableStreamDefaultReader<LanguageModelV4StreamPart>;
    }
  | {
      /** The stream carried an `error` part, did not finish, or threw (`thrown`): replay it as it came. */
      readonly ok: false;
      readonly parts: readonly LanguageModelV4StreamPart[];
      readonly thrown: { readonly error: unknown } | undefined;
    };

type Block = { type: 'text' | 'reasoning'; text: string; providerMetadata?: unknown };

/**
 * Reads a provider stream into the `LanguageModelV4GenerateResult` it
 * describes, so hooks that work on whole responses (`onResponse`,
 * `afterModelCall`) see the same shape for `generateText` and `streamText`,
 * and keeps every part so an unchanged response is released verbatim. The
 * response is whole at the provider's `finish` part: reading stops there
 * (`rest`), so a provider that is slow to close its stream (or never does,
 * until a timeout) holds nothing back that the raw SDK would have passed on.
 */
export async function collectStream(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<CollectedStream> {
  const parts: LanguageModelV4StreamPart[] = [];
  const content: LanguageModelV4Content[] = [];
  let texts: Map<string, Block> | undefined;
  let reasonings: Map<string, Block> | undefined;
  const response: Partial<LanguageModelV4GenerateResult> = {};
  let failed = false;

  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      parts.push(part);
      switch (part.type) {
        case 'text-start':
        case 'reasoning-start': {
          const block: Block = { type: part.type === 'text-start' ? 'text' : 'reasoning', text: '' };
          if (part.providerMetadata) block.providerMetadata = part.providerMetadata;
          if (part.type === 'text-start') (texts ??= new Map()).set(part.id, block);
          else (reasonings ??= new Map()).set(part.id, block);
          content.push(block as LanguageModelV4Content);
          break;
        }
        case 'text-delta':
        case 'reasoning-delta':
        case 'text-end':
        case 'reasoning-end': {
          const block = (part.type === 'text-delta' || part.type === 'text-end' ? texts : reasonings)?.get(part.id);
          if (block === undefined) break;
          if (part.type === 'text-delta' || part.type === 'reasoning-delta') block.text += part.delta;
          if (part.providerMetadata !== undefined) block.providerMetadata = part.providerMetadata;
          break;
        }
        case 'stream-start':
          response.warnings = part.warnings;
          break;
        case 'response-metadata': {
          const { type: _type, ...metadata } = part;
          response.response = metadata;
          break;
        }
        case 'finish':
          response.finishReason = part.finishReason;
          response.usage = part.usage;
          if (part.providerMetadata) response.providerMetadata = part.providerMetadata;
          finished = !failed;
          break;
        case 'error':
          failed = true;
          break;
        case 'tool-input-start':
        case 'tool-input-delta':
        case 'tool-input-end':
        case 'ping':
        case 'raw':
          break;
        default:
          // tool-call, tool-result, tool-approval-request, file, source, custom, reasoning-file
          content.push(part);
      }
      if (finished) break;
    }
  } catch (error) {
    reader.releaseLock();
    return { ok: false, parts, thrown: { error } };
  }

  if (!finished || response.finishReason === undefined || response.usage === undefined) {
    reader.releaseLock();
    return { ok: false, parts, thrown: undefined };
  }
  return {
    ok: true,
    parts,
    rest: reader,
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
