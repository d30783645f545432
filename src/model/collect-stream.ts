import type { LanguageModelV4Content, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';

/** A provider stream read to its end: its own parts, in order. */
export type CollectedStream =
  | {
      readonly ok: true;
      readonly parts: readonly LanguageModelV4StreamPart[];
      /** The whole response the parts describe, for hooks that work on responses. */
      readonly response: LanguageModelV4GenerateResult;
      /**
       * The provider's stream after its `finish` part (its end, as a rule),
       * its first read under way: passed on as it comes once the parts are released.
       */
      readonly rest: StreamRest;
    }
  | {
      /** The stream carried an `error` part, did not finish, or threw (`thrown`): replay it as it came. */
      readonly ok: false;
      readonly parts: readonly LanguageModelV4StreamPart[];
      readonly thrown: { readonly error: unknown } | undefined;
    };

/**
 * The provider's stream after its `finish` part: its first read starts
 * as the finish comes (no wait for it), and says once it settles whether it
 * found the stream ended, as a rule long before the parts are released (a
 * stream known to be over is replayed without reading it further).
 */
export class StreamRest {
  readonly reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart>;
  /** The first read after the finish part. */
  readonly next: Promise<ReadableStreamReadResult<LanguageModelV4StreamPart>>;
  /** Whether that read found the stream ended (`false` until it settles). */
  ended = false;

  constructor(reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart>) {
    this.reader = reader;
    this.next = reader.read();
    // a rejection is the replay's to report; this only notes the end
    this.next.then((read) => {
      this.ended = read.done;
    }, ignore);
  }
}

const ignore = (): void => {};

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
  // what the response says besides its content, as the parts tell it
  let warnings: LanguageModelV4GenerateResult['warnings'] | undefined;
  let metadata: LanguageModelV4GenerateResult['response'];
  let finish: Extract<LanguageModelV4StreamPart, { type: 'finish' }> | undefined;
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
        warnings = part.warnings;
        return false;
      case 'response-metadata': {
        const { type: _type, ...rest } = part;
        metadata = rest;
        return false;
      }
      case 'finish':
        finish = part;
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
    if (!finished || finish?.finishReason === undefined || finish.usage === undefined) {
      reader.releaseLock();
      return { ok: false, parts, thrown: undefined };
    }
    const response: { -readonly [K in keyof LanguageModelV4GenerateResult]: LanguageModelV4GenerateResult[K] } = {
      content,
      finishReason: finish.finishReason,
      usage: finish.usage,
      warnings: warnings ?? [],
    };
    if (finish.providerMetadata) response.providerMetadata = finish.providerMetadata;
    if (metadata) response.response = metadata;
    return { ok: true, parts, rest: new StreamRest(reader), response };
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
