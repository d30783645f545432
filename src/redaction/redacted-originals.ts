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
  private readonly blocks: RedactedBlock[] = [];

  /** Remembers a changed reasoning block (one without provider metadata needs nothing back). */
  note(block: RedactedBlock): void {
    if (block.kind === 'reasoning') this.blocks.push(block);
  }

  /**
   * `request` with each assistant reasoning part that holds a remembered
   * block's redacted text (and no provider options of its own) given back
   * the original and its metadata; `request` itself when there is none. The
   * history keeps the run's responses in order, so the n-th part with a
   * redacted text is the n-th block remembered with it (two blocks may
   * redact to the same text, each with its own signature).
   */
  restore(request: LanguageModelV4CallOptions): LanguageModelV4CallOptions {
    if (this.blocks.length === 0) return request;
    const seen = new Map<string, number>();
    let changed = false;
    const prompt = request.prompt.map((message) => {
      if (message.role !== 'assistant') return message;
      let content: AssistantPart[] | undefined;
      message.content.forEach((part, index) => {
        if (part.type !== 'reasoning' || part.providerOptions !== undefined) return;
        const nth = seen.get(part.text) ?? 0;
        seen.set(part.text, nth + 1);
        const original = this.blocks.filter((block) => block.redacted === part.text)[nth];
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
