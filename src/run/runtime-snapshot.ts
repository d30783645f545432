import { LIFECYCLES, type Lifecycle } from '../actions/lifecycle.ts';
import { handles, type RegisteredHandler } from '../handlers/registered-handler.ts';
import type { Wording } from '../handlers/wording.ts';
import type { HookSnapshot } from '../hooks/hook-registry.ts';
import type { ApprovalInbox } from '../inbox/approval-inbox.ts';
import type { Redactor } from '../redaction/create-redactor.ts';
import { redactionForPeople } from '../redaction/redaction-for-people.ts';
import { redactsErrors } from '../redaction/redacts-tool-errors.ts';
import type { DecisionTrail } from '../trail/create-decision-trail.ts';
import type { OwnPrompts } from './own-prompts.ts';

/**
 * The registered handlers, per lifecycle point the ones that define it, and
 * what they all say of redaction (worked out once per registration, not per
 * run): whether one redacts tool errors, and the text redaction for what
 * people see of a decision (every rule of the runtime's redactors and of
 * the redaction handlers; `undefined` when nothing redacts).
 */
export type HandlerLists = {
  readonly all: readonly RegisteredHandler[];
  readonly redactsErrors: boolean;
  readonly forPeople: ((text: string) => string) | undefined;
} & { readonly [L in Lifecycle]: readonly RegisteredHandler[] };

/** What one run (or one middleware call) works with: fixed when it starts. */
export interface RuntimeSnapshot {
  readonly handlers: HandlerLists;
  readonly hooks: HookSnapshot;
  readonly wording: Wording;
  readonly maxGuideRetries: number;
  /** Signs and verifies approvals: the configured `approvalSecret` (a list's current key), or one generated for the runtime. */
  readonly approvalSecret: string | Uint8Array;
  /** The previous keys of a configured `approvalSecret` list: they still verify the approvals they signed. */
  readonly previousApprovalSecrets: readonly (string | Uint8Array)[];
  /** Whether `approvalSecret` was configured (shared by instances) rather than generated (this runtime only). */
  readonly approvalSecretConfigured: boolean;
  /** Where confirms' requests wait for the people who answer them; `undefined`: none (`approvalInbox: false`). */
  readonly approvalInbox?: ApprovalInbox | undefined;
  /** Applied to the model's text, whole or as it streams, before anything else sees it. */
  readonly redactors: readonly Redactor[];
  /** Which tool calls get a `data-intervention` part (see `InterventionsOptions.decisionParts`). */
  readonly decisionParts: 'acted' | 'all';
  /** Where every record is chained, once final (see `report-records.ts`). */
  readonly trail: DecisionTrail | undefined;
  /** Stamped on every record. */
  readonly policyVersion: string | undefined;
  /** Whether records get their `actionDigest` (a trail, or `actionDigests: true`). */
  readonly actionDigests: boolean;
  /** The prompts of the model requests the runtime's runs and middleware send on (see {@link OwnPrompts}). */
  readonly ownPrompts?: OwnPrompts;
}

/** Indexes `all` by lifecycle point, so a point nobody handles costs nothing (`redactors`: the runtime's). */
export function buildHandlerLists(all: readonly RegisteredHandler[], redactors: readonly Redactor[] = []): HandlerLists {
  const lists = {
    all,
    redactsErrors: all.some((registered) => redactsErrors(registered, undefined, undefined)),
    forPeople: redactionForPeople(redactors, all),
  } as Pick<HandlerLists, 'all' | 'redactsErrors' | 'forPeople'> & Record<Lifecycle, readonly RegisteredHandler[]>;
  for (const lifecycle of LIFECYCLES) {
    lists[lifecycle] = all.filter((registered) => handles(registered, lifecycle));
  }
  return lists;
}

/** Whether anything runs around a tool's `execute`: tool hooks, `afterToolCall` handlers, tool error redaction. */
export function hasToolHooks(snapshot: RuntimeSnapshot): boolean {
  const { hooks, handlers } = snapshot;
  return (
    hooks.preToolCall.length > 0 ||
    hooks.onToolCallResult.length > 0 ||
    hooks.onToolCallError.length > 0 ||
    handlers.afterToolCall.length > 0 ||
    hooks.onStatus.length > 0 ||
    snapshot.redactors.length > 0 ||
    handlers.redactsErrors
  );
}
