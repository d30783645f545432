import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart, LanguageModelV4ToolCall } from '@ai-sdk/provider';
import { repeatsAnId } from './repeats-an-id.ts';

/**
 * Gives every tool call of a response an id of its own. Providers may send
 * two calls with one id in a response (a hostile or broken endpoint does),
 * and the SDK keys a step's approvals, blocked calls and results by that id:
 * a denial of one would land on the other. The first call keeps the
 * provider's id; each later call repeating it gets a new one (`<id>-2`,
 * `<id>-3`, … unused in the response), which the history, the results and
 * the next request carry. The same response comes back, and nothing is
 * allocated, when no id repeats. (A streamed step gets the same ids as its
 * parts come: {@link StreamedCallIds}.)
 */
export function uniqueToolCallIds(response: LanguageModelV4GenerateResult): LanguageModelV4GenerateResult {
  if (!repeatsAnId(response.content)) return response;
  const ids = new CallIds(response.content);
  let content = response.content;
  response.content.forEach((part, index) => {
    if (part.type !== 'tool-call' || part.providerExecuted === true) return;
    const id = ids.assign(part.toolCallId);
    if (id === part.toolCallId) return;
    if (content === response.content) content = [...content];
    content[index] = { ...part, toolCallId: id };
  });
  return content === response.content ? response : { ...response, content };
}

/**
 * Hands out call ids: the provider's the first time it is seen, a new one
 * (`<id>-2`, …) after. A new id is never one the response uses (`content`,
 * when the whole response is known) or one handed out so far (a stream's
 * ids are known only as they come). Nothing is allocated while at most one
 * id has been handed out (a streamed step with one call, the common case).
 */
export class CallIds {
  private readonly given = new Ids();
  private readonly taken: Ids;

  constructor(content?: LanguageModelV4GenerateResult['content']) {
    if (content === undefined) {
      this.taken = this.given;
      return;
    }
    this.taken = new Ids();
    for (const part of content) if (part.type === 'tool-call') this.taken.add(part.toolCallId);
  }

  /** Notes an id used by a call that is not renamed (provider-executed). */
  note(id: string): void {
    this.given.add(id);
    this.taken.add(id);
  }

  assign(id: LanguageModelV4ToolCall['toolCallId']): string {
    if (!this.given.has(id)) {
      this.note(id);
      return id;
    }
    let n = 2;
    while (this.taken.has(`${id}-${n}`) || this.given.has(`${id}-${n}`)) n++;
    const fresh = `${id}-${n}`;
    this.note(fresh);
    return fresh;
  }
}

/**
 * {@link uniqueToolCallIds} for a stream, part by part: a call's argument
 * parts (`tool-input-start` / `-delta` / `-end`) and its `tool-call` get the
 * id the call is given. A part passes unchanged unless its id repeats. It
 * also counts the calls whose arguments are streaming (`open`).
 */
export class StreamedCallIds {
  private readonly ids = new CallIds();
  /** The id given to each call whose arguments are streaming, by the provider's id (made at the first `tool-input-start`). */
  private streaming: Map<string, string> | undefined;
  /** Calls whose arguments started and whose `tool-call` has not come yet. */
  open = 0;

  name(part: LanguageModelV4StreamPart): LanguageModelV4StreamPart {
    switch (part.type) {
      case 'tool-input-start': {
        if (part.providerExecuted === true) {
          this.ids.note(part.id);
          return part;
        }
        const id = this.ids.assign(part.id);
        (this.streaming ??= new Map()).set(part.id, id);
        this.open++;
        return id === part.id ? part : { ...part, id };
      }
      case 'tool-input-delta':
      case 'tool-input-end': {
        const id = this.streaming?.get(part.id) ?? part.id;
        return id === part.id ? part : { ...part, id };
      }
      case 'tool-call': {
        if (part.providerExecuted === true) {
          this.ids.note(part.toolCallId);
          return part;
        }
        // a call whose arguments streamed has its id already; any other is given one now
        const streamed = this.streaming?.get(part.toolCallId);
        let id: string;
        if (streamed === undefined) id = this.ids.assign(part.toolCallId);
        else {
          this.streaming?.delete(part.toolCallId);
          this.open--;
          id = streamed;
        }
        return id === part.toolCallId ? part : { ...part, toolCallId: id };
      }
      default:
        return part;
    }
  }
}

/** A set of ids that allocates nothing until it holds two. */
class Ids {
  private first: string | undefined;
  private rest: Set<string> | undefined;

  has(id: string): boolean {
    return this.first === id || (this.rest?.has(id) ?? false);
  }

  add(id: string): void {
    if (this.first === undefined) this.first = id;
    else if (this.first !== id) (this.rest ??= new Set()).add(id);
  }
}
