import type { ModelMessage, ToolSet } from 'ai';
import { InterventionActions } from '../actions/intervention-actions.ts';
import type { BeforeToolCallEvent } from '../actions/intervention-events.ts';
import type { BeforeToolCallAction } from '../actions/lifecycle.ts';
import { sha256, stableJson } from '../data/stable-json.ts';
import type { InterventionHandlerLike } from '../handlers/intervention-handler.ts';
import { pairToolCalls } from '../messages/pair-tool-calls.ts';
import { declaredScope, declareScopes } from '../tools/declared-scopes.ts';
import { LOOP_GUARD_OPTIONS, type LoopDetection, type LoopGuardOptions } from './loop-guard-options.ts';

/**
 * Breaks degenerate tool loops (opencode's `doom_loop`, user asks 12 and 13):
 * the same tool called with the same arguments over and over, and the retry
 * spiral after a denial, where the model re-issues a blocked call until the
 * step cap and ends with an empty answer.
 *
 * A call's signature is its tool name plus the JSON of its input with
 * object keys sorted (so `{a, b}` and `{b, a}` are the same call). Two
 * signals, per signature:
 *
 * - **repeat**: more than `maxRepeats` identical calls in the same run
 *   (`event.runId`), counted once per call (its step and `toolCallId`: a
 *   provider may send `call_0` every turn), parallel calls of one turn
 *   included;
 * - **retry**: an identical earlier call of the current user turn (the
 *   messages after the last user message) was blocked in `event.messages`:
 *   its result is `execution-denied`, or its approval was refused (a chat
 *   app's history after `convertToModelMessages`, where a denied call's
 *   result is an `error-text`): it was denied or guided by any handler, or
 *   refused by a human. Results are matched to calls by position, not by id
 *   alone. The history is the source of truth for blocks, because it sees
 *   every handler's decision and survives the end of a run (an approval
 *   resume starts a new run with the same turn).
 *
 * The first time a signature loops, the call is guided ("you have called X
 * with the same arguments N times; change approach"); every later time it
 * gets `then` (`'deny'` by default). A signature already blocked twice in
 * the turn escalates straight to `then`, even in a new run. Guided and
 * denied calls do not run. A guide ranks below another handler's `confirm`
 * (seed 000): when a human refused a call and the model retries it, the
 * human is asked once more, shown the guard's feedback with the request; the
 * retry after that is denied without asking.
 *
 * **State and memory.** Repeat counts live in a `Map` keyed on `runId`.
 * Handlers are not told when a run ends, so the map keeps the `maxRuns` most
 * recently active runs and drops the least recently used one beyond that
 * (a `WeakRef` cannot help: a run id is a string). A run's entry holds a
 * SHA-256 digest per distinct signature and its answer per call id, so it is
 * bounded by the run's step cap, not by the size of the inputs. State never
 * crosses runs: a new run starts counting at zero. Outside a run
 * (`guardTools`, `wrapTools`; `runId` is `undefined`) repeats are counted
 * from the current user turn of `event.messages` instead.
 *
 * Register it first: it should see the arguments the model sent, before
 * other handlers transform them.
 *
 * @example
 * ```ts
 * const interventions = createInterventions({
 *   handlers: [
 *     loopGuard({ maxRepeats: 3, tools: '!poll_status' }),
 *     toolPolicy({ rules: [{ allow: ['search', 'poll_status'] }], default: 'deny' }),
 *   ],
 * });
 * // 4th identical `search({ q: 'x' })` in a run: not run, the model is told to change approach;
 * // the 5th (or a retry of a call the policy denied twice) is denied.
 * ```
 */
export function loopGuard<TOOLS extends ToolSet = ToolSet>(options: LoopGuardOptions<NoInfer<TOOLS>> = {}): InterventionHandlerLike<TOOLS> {
  LOOP_GUARD_OPTIONS.check(options, `loopGuard "${options.name ?? 'loop-guard'}"`);
  const {
    name = 'loop-guard',
    maxRepeats = 3,
    then = 'deny',
    tools,
    maxRuns = 1_000,
    message = defaultMessage,
    onError,
    timeoutMs,
    mode,
  } = options;
  if (!Number.isInteger(maxRepeats) || maxRepeats < 1) {
    throw new RangeError(`loopGuard "${name}": maxRepeats must be an integer >= 1, got ${String(maxRepeats)}`);
  }
  if (!Number.isInteger(maxRuns) || maxRuns < 1) {
    throw new RangeError(`loopGuard "${name}": maxRuns must be an integer >= 1, got ${String(maxRuns)}`);
  }
  if (then !== 'guide' && then !== 'deny') {
    throw new TypeError(`loopGuard "${name}": then must be 'guide' or 'deny', got ${String(then)}`);
  }
  const scope = tools === undefined ? undefined : declaredScope('tools', tools, name);
  const watched = scope?.matches ?? (() => true);
  const runs = new Map<string, RunState>();

  /** The run's state, marked most recently used; the least recently used run beyond `maxRuns` is dropped. */
  const stateOf = (runId: string): RunState => {
    let state = runs.get(runId);
    if (state === undefined) state = { counts: new Map(), answered: new Map(), loops: new Map() };
    else runs.delete(runId);
    runs.set(runId, state);
    if (runs.size > maxRuns) {
      const oldest = runs.keys().next();
      if (oldest.done !== true) runs.delete(oldest.value);
    }
    return state;
  };

  // its tools scope is checked against the runs' tools, like a handler's own
  return declareScopes(
    {
      name,
      // it never transforms a call: a streamed step's calls are not held for it
      toolCallActions: ['deny', 'guide'],
      ...(onError === undefined ? {} : { onError }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(mode === undefined ? {} : { mode }),
      async beforeToolCall(event: BeforeToolCallEvent): Promise<BeforeToolCallAction> {
        const { toolCallId, toolName, input } = event.toolCall;
        if (!watched(toolName, event.tool)) return InterventionActions.proceed();
        const signature = signatureOf(toolName, input);
        const history = currentTurn(event.messages, signature, toolCallId);

        let calls: number;
        let state: RunState | undefined;
        let digest = '';
        let callKey = '';
        if (event.runId === undefined) {
          calls = history.calls + 1;
        } else {
          state = stateOf(event.runId);
          // a provider may reuse ids across turns (`call_0` every turn): a call is its step and its id
          callKey = `${String(event.stepNumber)}:${toolCallId}`;
          const answered = state.answered.get(callKey);
          if (answered !== undefined) return answered; // evaluated again: the same answer, counted once
          digest = await sha256(signature);
          calls = (state.counts.get(digest) ?? 0) + 1;
          state.counts.set(digest, calls);
        }

        const answer = (action: BeforeToolCallAction) => {
          state?.answered.set(callKey, action);
          return action;
        };
        const repeat = calls > maxRepeats;
        if (!repeat && history.blocked === 0) return answer(InterventionActions.proceed());

        // loops seen before: the guard's own in this run, or (across runs) the blocks beyond the first
        const earlier = Math.max(state?.loops.get(digest) ?? 0, history.blocked - 1);
        state?.loops.set(digest, (state.loops.get(digest) ?? 0) + 1);
        const action = earlier === 0 ? 'guide' : then;
        const text = message({
          kind: history.blocked > 0 ? 'retry' : 'repeat',
          action,
          toolName,
          input,
          calls,
          blocked: history.blocked,
          maxRepeats,
        });
        return answer(action === 'deny' ? InterventionActions.deny(text) : InterventionActions.guide(text));
      },
    },
    [scope],
  );
}

interface RunState {
  /** Calls per signature digest. */
  readonly counts: Map<string, number>;
  /** The answer given to each call, by step and id: a call evaluated twice is counted once. */
  readonly answered: Map<string, BeforeToolCallAction>;
  /** Loops the guard answered, per signature digest. */
  readonly loops: Map<string, number>;
}

function defaultMessage({ kind, action, toolName, calls, blocked, maxRepeats }: LoopDetection): string {
  const times = (count: number) => (count === 1 ? 'once' : `${count} times`);
  if (action === 'guide') {
    return kind === 'repeat'
      ? `You have called "${toolName}" with the same arguments ${times(calls)} in this run (the limit is ${maxRepeats}). ` +
          'Repeating it will not give a different result: change your approach (other arguments, another tool) or answer with what you have.'
      : `This exact call to "${toolName}" (same arguments) was already blocked ${times(blocked)} in this turn, and retrying it as is will not work. ` +
          'Change your approach, or explain to the user why it cannot be done.';
  }
  return (
    `"${toolName}" was called again with the same arguments` +
    (blocked > 0 ? ` after being blocked ${times(blocked)}` : ` (${times(calls)} in this run)`) +
    '. This is a loop: stop calling it with these arguments and continue without it.'
  );
}

/**
 * Identical earlier calls of the current user turn (after the last user
 * message), and how many of them were blocked: their result is
 * `execution-denied`, or their approval was refused (what a chat app sends
 * back: `convertToModelMessages` turns a denied call's `output-denied` part
 * into an approval refusal and an `error-text` result). Calls and answers
 * are paired by position, so a provider reusing call ids (`call_0` every
 * turn) is counted right. The call being decided is left out when the
 * history holds it (a resumed call: the last unanswered call with its id).
 */
function currentTurn(messages: readonly ModelMessage[], signature: string, toolCallId: string): { calls: number; blocked: number } {
  let start = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === 'user') {
      start = index + 1;
      break;
    }
  }
  const turn = pairToolCalls(messages.slice(start));
  const current = turn.findLast((call) => call.toolCallId === toolCallId && call.result === undefined);
  let calls = 0;
  let blocked = 0;
  for (const call of turn) {
    if (call === current || signatureOf(call.toolName, call.input) !== signature) continue;
    calls++;
    if (call.refused || call.result?.output.type === 'execution-denied') blocked++;
  }
  return { calls, blocked };
}

/** Tool name + the input's JSON with sorted object keys. */
function signatureOf(toolName: string, input: unknown): string {
  let json: string;
  try {
    json = stableJson(input);
  } catch {
    json = String(input); // a cycle: only equal strings collide
  }
  return `${toolName}\u0000${json}`;
}
