import { type BeforeToolCallAction, type BeforeToolCallEvent, InterventionActions } from '../../src/index.ts';

/** The five action kinds a property test draws. */
export type ActionKind = 'proceed' | 'deny' | 'guide' | 'confirm' | 'transform';

/**
 * The action of handler `index` for a kind, marked with the index so a test can
 * tell whose action won: `reason-i`, `feedback-i`, `prompt-i`, and a transform
 * appending `+i` to the call's `tag` input.
 */
export function taggingAction(kind: ActionKind, index: number): BeforeToolCallAction {
  switch (kind) {
    case 'proceed':
      return InterventionActions.proceed();
    case 'deny':
      return InterventionActions.deny(`reason-${index}`);
    case 'guide':
      return InterventionActions.guide(`feedback-${index}`);
    case 'confirm':
      return InterventionActions.confirm(`prompt-${index}`);
    case 'transform':
      return InterventionActions.transform<BeforeToolCallEvent>((draft) => {
        const input = draft.toolCall.input as { tag: string };
        input.tag = `${input.tag}+${index}`;
      });
  }
}
