import { approversData, type ConfirmTerms, whoMayAnswer } from '../actions/confirm-terms.ts';
import { userIdOf } from '../actions/user-id-of.ts';
import type { ApproversData } from '../client/intervention-data.ts';
import { redactData } from '../redaction/redact-data.ts';
import type { InboxRequest } from './approval-inbox.ts';

type RuntimeContext = Readonly<Record<string, unknown>>;

/** What the runtime knows of a confirm when its request is made: the call, who asked and when, what it asks of its answer. */
export interface AskedRequest {
  readonly approvalId: string;
  readonly call: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };
  readonly asker: RuntimeContext;
  readonly askedAt: number;
  readonly terms: ConfirmTerms | undefined;
  readonly prompt: string | undefined;
  /** The sealed pin the request carries. */
  readonly pin: string;
}

/** A request as the inbox keeps it: its arguments and prompt as people may see them (`forPeople`), listed for who may answer. */
export function inboxRequestOf(asked: AskedRequest, forPeople: ((text: string) => string) | undefined): InboxRequest {
  const { approvalId, call, asker, askedAt, terms, prompt, pin } = asked;
  const approvers = terms === undefined ? [] : approversData(terms);
  const mayAnswer = terms === undefined ? undefined : whoMayAnswer(terms);
  const askedBy = userIdOf(asker);
  const sessionId = asker.sessionId;
  const conversationId = typeof sessionId === 'string' || typeof sessionId === 'number' ? String(sessionId) : undefined;
  return {
    id: approvalId,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    callInput: call.input,
    input: forPeople === undefined ? call.input : redactData(call.input, forPeople),
    pin,
    ...(prompt === undefined ? {} : { prompt: forPeople === undefined ? prompt : forPeople(prompt) }),
    ...(askedBy === undefined ? {} : { askedBy }),
    askedAt,
    ...(terms?.expiresInMs === undefined ? {} : { expiresAt: askedAt + terms.expiresInMs }),
    approvers,
    ...(mayAnswer === undefined ? {} : { mayAnswer }),
    quorum: terms?.quorum ?? 1,
    ...(conversationId === undefined ? {} : { conversationId }),
    audience: audienceOfRule(approvers[0]),
  };
}

/**
 * The keys a request is listed under: those of its first rule (everyone who
 * may answer passes every rule, so the first), or `anyone`.
 */
function audienceOfRule(rule: ApproversData | undefined): string[] {
  const keys = [...(rule?.userIds ?? []).map((id) => `user:${id}`), ...(rule?.roles ?? []).map((role) => `role:${role}`)];
  // a rule with a predicate admits whom only the server can tell: listed for anyone, answered as the rules say
  return keys.length === 0 || rule?.allow === true ? ['anyone'] : keys;
}

/** The keys a person's inbox reads: their user id, each of their roles, and `anyone`. */
export function audienceOf(person: RuntimeContext): string[] {
  const id = userIdOf(person);
  const { roles, role } = person;
  const all = Array.isArray(roles) ? roles.filter((item): item is string => typeof item === 'string') : [];
  if (typeof role === 'string') all.push(role);
  return [...(id === undefined ? [] : [`user:${id}`]), ...all.map((name) => `role:${name}`), 'anyone'];
}
