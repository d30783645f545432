import type { SharedV4ProviderMetadata } from '@ai-sdk/provider';
import type { ModelMessage, Tool, ToolSet } from 'ai';
import { LABELS } from '../messages/injected-text.ts';
import { withProperties } from '../util/with-properties.ts';
import { declaredHints, TOOL_ANNOTATION_HINTS, type ToolAnnotationHints, withDefaults } from './tool-annotations.ts';
import { hasTrustedAnnotations, type ListingChange, type ListingsReader, type ToolListings } from './trusted-annotations.ts';

/** The strict value of each hint: the specification's defaults for a tool that declares nothing. */
const STRICT = withDefaults({});

/**
 * Reads what a run knows of its tools' listings (some of them trusted), worked
 * out once, at its first tool decision: the tools handlers see, the label its
 * first decided call carries, and the changes to report. The mark of a
 * trusted tool carries it (`trustToolAnnotations`).
 *
 * Only tools whose annotations the app trusts (`trustToolAnnotations`) can
 * loosen a policy by what they declare, so only their listings are kept: the
 * first tool call a run decides in the model layer carries, in its provider
 * metadata (`providerMetadata['ai-interventions'].listing`), the hints every
 * trusted tool of the run declares. The history keeps it wherever it keeps
 * the call (the next request, a resume, a `useChat` round trip: the call's
 * `callProviderMetadata`, another instance). A later run reads every listing
 * its input history records and gives handlers each trusted tool with its
 * strictest listing of the conversation: a hint is read-only, idempotent or
 * closed-world only if every listing said so, destructive or open-world if
 * any did. A label only ever adds a listing, so a forged one makes nothing
 * looser.
 */
export const readToolListings: ListingsReader = (tools, history) => new TrustedListings(tools, history);

class TrustedListings implements ToolListings {
  readonly tools: ToolSet | undefined;
  readonly changes: ListingChange[] = [];
  private label: SharedV4ProviderMetadata | undefined;

  constructor(tools: ToolSet, history: readonly ModelMessage[]) {
    this.tools = tools;
    const trusted = Object.keys(tools).filter((name) => hasTrustedAnnotations(tools[name]));
    if (trusted.length === 0) return;
    const listing = Object.fromEntries(trusted.map((name) => [name, declaredHints(tools[name])]));
    this.label = { [LABELS]: { listing } } as unknown as SharedV4ProviderMetadata;
    const recorded = recordedListings(history);
    for (const name of trusted) {
      const now = withDefaults(listing[name] as ToolAnnotationHints);
      const strictest = { ...now };
      const how = new Set<string>();
      for (const earlier of recorded.get(name) ?? []) {
        const was = withDefaults(earlier);
        for (const hint of TOOL_ANNOTATION_HINTS) {
          if (was[hint] === now[hint]) continue;
          how.add(`${hint} ${was[hint]} -> ${now[hint]}`);
          if (was[hint] === STRICT[hint]) strictest[hint] = was[hint];
        }
      }
      if (how.size === 0) continue;
      this.changes.push({ toolName: name, how: [...how].join(', ') });
      // a copy of the tools with a copy of the tool declaring its strictest hints (a computed key: `__proto__` stays a key)
      const tool = tools[name] as Tool;
      this.tools = { ...this.tools, [name]: withProperties(tool, { metadata: { ...tool.metadata, annotations: strictest } }) };
    }
  }

  takeLabel(): SharedV4ProviderMetadata | undefined {
    const label = this.label;
    this.label = undefined;
    return label;
  }
}

/** Every listing the tool calls of `messages` record, per tool (only boolean hints of known names are read). */
function recordedListings(messages: readonly ModelMessage[]): Map<string, ToolAnnotationHints[]> {
  const listings = new Map<string, ToolAnnotationHints[]>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      const listing: unknown =
        part.type === 'tool-call' ? (part.providerOptions?.[LABELS] as { listing?: unknown } | undefined)?.listing : undefined;
      if (listing === null || typeof listing !== 'object') continue;
      for (const [toolName, annotations] of Object.entries(listing)) {
        // read as a tool declaring them would be: booleans of known hints only
        const hints = declaredHints({ metadata: { annotations } } as unknown as Tool);
        listings.set(toolName, [...(listings.get(toolName) ?? []), hints]);
      }
    }
  }
  return listings;
}
