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
export function collectStream(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<CollectedStream> {
  const parts: LanguageModelV4StreamPart[] = [];
  const content: LanguageModelV4Content[] = [];
  let texts: Map<string, Block> | undefined;
  let reasonings: Map<string, Block> | undefined;
  const response: Partial<LanguageModelV4GenerateResult> = {};
  let failed = false;
  const reader = stream.getReader();

  /** Takes one part in; true at the provider's finish (the response is whole). */
  const take = (part: LanguageModelV4StreamPart): boolean => {
    parts.push(part);
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start': {
        const block: Block = { type: part.type === 'text-start' ? 'text' : 'reasoning', text: '' };
        if (part.providerMetadata) block.providerMetadata = part.providerMetadata;
        if (part.type === 'text-start') (texts ??= new Map()).set(part.id, block);
        else (reasonings ??= new Map()).set(part.id, block);
        content.push(block as LanguageModelV4Content);
        return false;
      }
      case 'text-delta':
      case 'reasoning-delta':
      case 'text-end':
      case 'reasoning-end': {
        const block = (part.type === 'text-delta' || part.type === 'text-end' ? texts : reasonings)?.get(part.id);
        if (block === undefined) return false;
        if (part.type === 'text-delta' || part.type === 'reasoning-delta') block.text += part.delta;
        if (part.providerMetadata !== undefined) block.providerMetadata = part.providerMetadata;
        return false;
      }
      case 'stream-start':
        response.warnings = part.warnings;
        return false;
      case 'response-metadata': {
        const { type: _type, ...metadata } = part;
        response.response = metadata;
        return false;
      }
      case 'finish':
        response.finishReason = part.finishReason;
        response.usage = part.usage;
        if (part.providerMetadata) response.providerMetadata = part.providerMetadata;
        return !failed;
      case 'error':
        failed = true;
        return false;
      case 'tool-input-start':
      case 'tool-input-delta':
      case 'tool-input-end':
      case 'ping':
      case 'raw':
        return false;
      default:
        // tool-call, tool-result, tool-approval-request, file, source, custom, reasoning-file
        content.push(part);
        return false;
    }
  };

  /** The stream read up to its finish: the response it describes, or the parts of one that did not end well. */
  const collected = (finished: boolean): CollectedStream => {
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
  };

  // one read at a time, each answered by the same function (no async function: an await costs more per part)
  return new Promise((resolve) => {
    const thrown = (error: unknown): void => {
      reader.releaseLock();
      resolve({ ok: false, parts, thrown: { error } });
    };
    const next = (read: ReadableStreamReadResult<LanguageModelV4StreamPart>): void => {
      let whole: boolean;
      try {
        whole = read.done || take(read.value);
      } catch (error) {
        thrown(error);
        return;
      }
      if (whole) resolve(collected(!read.done));
      else reader.read().then(next, thrown);
    };
    reader.read().then(next, thrown);
  });
}
