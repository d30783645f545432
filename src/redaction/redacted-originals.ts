import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  SharedV4ProviderMetadata,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';

/** A text or reasoning block redaction changed, as the provider sent it. */
export interface RedactedBlock {
  readonly kind: 'text' | 'reasoning';
  /** What the history holds now. */
  readonly redacted: string;
  /** What the provider sent, and its metadata (a signature, a stored item's id). */
  readonly original: string;
  readonly providerMetadata: SharedV4ProviderMetadata;
}

type AssistantPart = Extract<LanguageModelV4Prompt[number], { role: 'assistant' }>['content'][number];

/**
 * The reasoning blocks of a run's responses that redaction changed and that
 * carried provider metadata, so that what goes back to the provider is what
 * it sent: a signed Anthropic `thinking` block is verified word for word
 * against its signature, an OpenAI Responses reasoning item is sent back as
 * a reference to what the provider stored. People, hooks, handlers and the
 * SDK's results see the redacted text; only the request the provider
 * receives, within the same run, holds the original again. Text blocks stay
 * redacted in the next request too: the model does not read again what
 * redaction removed from its answer.
 */
export class RedactedOriginals {
  /** The remembered blocks by their redacted text, in the order the run's kept responses gave them. */
  private readonly blocks = new Map<string, RedactedBlock[]>();

  /** Remembers a changed reasoning block of a response the run kept (one without provider metadata needs nothing back). */
  note(block: RedactedBlock): void {
    if (block.kind !== 'reasoning') return;
    const same = this.blocks.get(block.redacted);
    if (same === undefined) this.blocks.set(block.redacted, [block]);
    else same.push(block);
  }

  /**
   * `request` with each assistant reasoning part that holds a remembered
   * block's redacted text (and no provider options of its own) given back
   * the original and its metadata; `request` itself when there is none.
   *
   * The run's responses are the end of the history: the client's own
   * history comes before them, and may hold a block people saw with the same
   * redacted text (an earlier request's, without its signature). So the
   * parts with a text are matched to the blocks remembered with it from the
   * end: the last part is the last block, and a part before the run's own
   * keeps what the client sent (two blocks of the run may redact to the same
   * text, each with its own signature; a window that dropped the run's first
   * turns dropped the client's history before them too).
   */
  restore(request: LanguageModelV4CallOptions): LanguageModelV4CallOptions {
    if (this.blocks.size === 0) return request;
    const occurrences = new Map<string, number>();
    for (const message of request.prompt) {
      if (message.role !== 'assistant') continue;
      for (const part of message.content) {
        if (isRestorable(part) && this.blocks.has(part.text)) occurrences.set(part.text, (occurrences.get(part.text) ?? 0) + 1);
      }
    }
    if (occurrences.size === 0) return request;
    const seen = new Map<string, number>();
    let changed = false;
    const prompt = request.prompt.map((message) => {
      if (message.role !== 'assistant') return message;
      let content: AssistantPart[] | undefined;
      message.content.forEach((part, index) => {
        if (!isRestorable(part)) return;
        const blocks = this.blocks.get(part.text);
        if (blocks === undefined) return;
        const nth = seen.get(part.text) ?? 0;
        seen.set(part.text, nth + 1);
        // the last occurrences are the run's blocks, in order
        const original = blocks[nth - ((occurrences.get(part.text) ?? 0) - blocks.length)];
        if (original === undefined) return;
        content ??= [...message.content];
        content[index] = {
          ...part,
          text: original.original,
          providerOptions: original.providerMetadata as SharedV4ProviderOptions,
        } as AssistantPart;
      });
      if (content === undefined) return message;
      changed = true;
      return { ...message, content };
    });
    return changed ? { ...request, prompt } : request;
  }
}

/** A reasoning part as redaction left it: without provider options of its own. */
function isRestorable(part: AssistantPart): part is Extract<AssistantPart, { type: 'reasoning' }> {
  return part.type === 'reasoning' && part.providerOptions === undefined;
}

/** Where a run keeps the blocks redaction changed (`run.redactedOriginals`), made at the first. */
export function originalsOf(holder: { redactedOriginals: RedactedOriginals | undefined }): RedactedOriginals {
  holder.redactedOriginals ??= new RedactedOriginals();
  return holder.redactedOriginals;
}
