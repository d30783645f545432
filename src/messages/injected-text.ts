import type { TextPart, UserModelMessage } from 'ai';

/** The `providerOptions` namespace of the labels the library writes into a history (providers read only their own). */
export const LABELS = 'ai-interventions';

/** Which text the library put into a conversation as a user message, though the user did not write it. */
export type InjectedText = 'guidance' | 'steering' | 'follow-up';

/**
 * A user message the library injects (`kind`: a guide's feedback, a steering
 * or follow-up message), with every text part labelled as injected in its
 * `providerOptions`: a label on the part survives what keeps the history
 * (the SDK's steering UI parts and `convertToModelMessages` keep a text
 * part's provider options). The label only ever takes trust away (the text is
 * not the user's words), so a forged one makes nothing looser.
 */
export function injectedMessage(message: UserModelMessage, kind: InjectedText): UserModelMessage {
  const content: UserModelMessage['content'] =
    typeof message.content === 'string'
      ? [labelled({ type: 'text', text: message.content }, kind)]
      : message.content.map((part) => (part.type === 'text' ? labelled(part, kind) : part));
  return { ...message, content };
}

/** Whether a text part of a user message was put there by the library ({@link injectedMessage}). */
export function isInjectedText(part: TextPart): boolean {
  const label: unknown = part.providerOptions?.[LABELS];
  return label !== null && typeof label === 'object' && typeof (label as { injected?: unknown }).injected === 'string';
}

function labelled(part: TextPart, kind: InjectedText): TextPart {
  return { ...part, providerOptions: { ...part.providerOptions, [LABELS]: { injected: kind } } };
}
