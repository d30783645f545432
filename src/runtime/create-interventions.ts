import { createUIMessageStreamResponse } from 'ai';
import { approvalKeysOf, generateApprovalSecret } from '../approvals/approval-secret.ts';
import { InvalidHandlerError } from '../errors/invalid-handler-error.ts';
import { InvalidOptionError } from '../errors/invalid-option-error.ts';
import type { InterventionHandlerLike } from '../handlers/intervention-handler.ts';
import { type RegisteredHandler, registerHandler } from '../handlers/registered-handler.ts';
import { defaultWording, WORDING_KEYS, type Wording } from '../handlers/wording.ts';
import { HookRegistry } from '../hooks/hook-registry.ts';
import type { HookName, InterventionHooks } from '../hooks/hook-types.ts';
import { createApprovalInbox } from '../inbox/create-approval-inbox.ts';
import { createApprovalLedger } from '../ledger/create-approval-ledger.ts';
import { OwnPrompts } from '../run/own-prompts.ts';
import { Run } from '../run/run.ts';
import { buildHandlerLists, type HandlerLists, type RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import { agentUIStream } from '../sdk/agent-ui-stream.ts';
import type { CallOptions } from '../sdk/call-options.ts';
import { composeAgentSettings } from '../sdk/compose-agent-settings.ts';
import { createModelMiddleware } from '../sdk/create-model-middleware.ts';
import { isIdle } from '../sdk/is-idle.ts';
import { runGenerateText } from '../sdk/run-generate-text.ts';
import { runStreamText } from '../sdk/run-stream-text.ts';
import { runtimeMiddleware } from '../sdk/runtime-middleware.ts';
import { createInterventionsInbox } from './create-interventions-inbox.ts';
import { type Interventions, WRAP_TOOLS_OPTIONS } from './interventions.ts';
import { INTERVENTIONS_OPTIONS, type InterventionsOptions } from './interventions-options.ts';
import { RuntimePaths } from './runtime-paths.ts';
import { createScopeReport } from './scope-report.ts';
import { warnAtCreation, warnAtRegistration } from './warn-at-creation.ts';
import { WrappedTools } from './wrapped-tools.ts';

/**
 * Creates the runtime.
 *
 * @example
 * ```ts
 * import { createInterventions, InterventionActions, InterventionHandler, type BeforeToolCallEvent } from 'ai-interventions';
 *
 * class EnvironmentGuard extends InterventionHandler {
 *   readonly name = 'environment-guard';
 *   override beforeToolCall(event: BeforeToolCallEvent) {
 *     const input = event.toolCall.input as Record<string, string>;
 *     return input.database?.includes('prod')
 *       ? InterventionActions.deny('Production database access is not allowed')
 *       : InterventionActions.proceed();
 *   }
 * }
 *
 * const interventions = createInterventions({ handlers: [new EnvironmentGuard()] });
 * ```
 */
export function createInterventions(options: InterventionsOptions = {}): Interventions {
  // a misspelt option (`handler` for `handlers`) would register nothing, silently
  INTERVENTIONS_OPTIONS.check(options, 'createInterventions');
  WORDING_KEYS.check(options.wording, 'createInterventions: wording');
  const hooks = new HookRegistry(options.hooks);
  const wording: Wording = { ...defaultWording, ...options.wording };
  const maxGuideRetries = options.maxGuideRetries ?? 2;
  const redactors = options.redactors ?? [];
  const approvalLedger = options.approvalLedger === false ? undefined : (options.approvalLedger ?? createApprovalLedger());
  const approvalInbox = options.approvalInbox === false ? undefined : (options.approvalInbox ?? createApprovalInbox());
  if (!Number.isInteger(maxGuideRetries) || maxGuideRetries < 0) {
    throw new TypeError(`maxGuideRetries must be a non-negative integer, received ${String(options.maxGuideRetries)}.`);
  }
  const handlerTimeoutMs = resolveHandlerTimeout(options.handlerTimeoutMs);
  const { trail, policyVersion } = checkRecordOptions(options);
  warnAtCreation(options, hooks.snapshot().onStatus);
  // approvals are always signed: with the configured secret, or with one of this runtime's own
  const approvalKeys =
    options.approvalSecret === undefined ? { current: generateApprovalSecret(), previous: [] } : approvalKeysOf(options.approvalSecret);
  let registered: readonly RegisteredHandler[] = [];
  let lists: HandlerLists = buildHandlerLists(registered, redactors);
  const wrappedTools = new WrappedTools();
  const ownPrompts = new OwnPrompts();
  // the paths the runtime is used through refuse the guards they cannot enforce (CAPABILITIES)
  const paths = new RuntimePaths(
    () => ({ handlers: registered, hooks: hooks.snapshot(), redactors: redactors.length }),
    () => wrappedTools.byName,
  );
  const scopes = createScopeReport({ strict: options.strictScopes === true, onStatus: () => hooks.snapshot().onStatus });

  const use = (handler: InterventionHandlerLike, position?: string): (() => void) => {
    const entry = registerHandler(handler, position, { defaultTimeoutMs: handlerTimeoutMs });
    if (registered.some((other) => other.name === entry.name)) {
      throw new InvalidHandlerError({
        handlerName: entry.name,
        code: 'duplicate-handler',
        message: `Two intervention handlers are named "${entry.name}"; handler names must be unique.`,
      });
    }
    paths.register({ handlers: [entry] });
    warnAtRegistration(handler, hooks.snapshot().onStatus);
    // tools already wrapped read the live registry: the new handler's scopes are checked against them
    if (paths.has('plain-tools')) scopes.check(wrappedTools.byName, [entry]);
    registered = [...registered, entry];
    lists = buildHandlerLists(registered, redactors);
    let disposed = false;
    return () => {
      if (disposed) return;
      disposed = true;
      registered = registered.filter((other) => other !== entry);
      lists = buildHandlerLists(registered, redactors);
    };
  };
  for (const [index, handler] of (options.handlers ?? []).entries()) use(handler, `handlers[${index}]`);

  const addHook = <K extends HookName>(event: K, hook: InterventionHooks[K]): (() => void) => {
    const dispose = hooks.add(event, hook);
    try {
      paths.register({ hooks: { [event]: hooks.snapshot()[event].slice(-1) } });
    } catch (error) {
      dispose();
      throw error;
    }
    return dispose;
  };

  // the runs of agents built with agentSettings, by the prompt each call was given: their UI streams show the decisions
  const agentRuns = new WeakMap<object, Run>();
  const runOfAgentInput = (input: unknown) => (typeof input === 'object' && input !== null ? agentRuns.get(input) : undefined);
  const ownAgents = new WeakSet<object>();
  const agentStream = (agentOptions: Parameters<typeof agentUIStream>[0]) => {
    paths.enterAgentStream(agentOptions.agent, (prepareCall) => ownAgents.has(prepareCall));
    return agentUIStream(agentOptions, runOfAgentInput);
  };

  const snapshot = (): RuntimeSnapshot => ({
    handlers: lists,
    hooks: hooks.snapshot(),
    wording,
    maxGuideRetries,
    approvalSecret: approvalKeys.current,
    previousApprovalSecrets: approvalKeys.previous,
    approvalSecretConfigured: options.approvalSecret !== undefined,
    approvalInbox,
    redactors,
    decisionParts: options.decisionParts ?? 'acted',
    trail,
    policyVersion,
    actionDigests: trail !== undefined || options.actionDigests === true,
    ownPrompts,
  });

  // a run's tools are checked against every handler's scopes (once per tool set and handler list)
  const runOptions = (callOptions: CallOptions) => {
    const unwrapped = wrappedTools.unwrapped(callOptions);
    scopes.check(unwrapped.tools, registered);
    return { snapshot: snapshot(), approvalLedger, options: unwrapped };
  };
  const middleware = runtimeMiddleware(
    createModelMiddleware(() => Run.detached(snapshot()), { own: ownPrompts }),
    {
      // the middleware refuses what it cannot enforce: a tool guard over a tool this runtime did not wrap (known by identity)
      check: (params) => {
        if (ownPrompts.has(params.prompt)) return params;
        paths.enter('middleware');
        paths.checkModelCall(params.tools, (definition) => wrappedTools.isWrapped(definition));
        return wrappedTools.restore(params);
      },
      sawCall: (toolCallId) => {
        if (paths.has('plain-tools')) wrappedTools.sawCall(toolCallId);
      },
    },
  );
  // a call of a wrapped tool comes from a model wrapped with this runtime's middleware when a guard needs the model layer
  const fromModel = (toolCallId: string) => {
    const guard = paths.modelGuard();
    if (!wrappedTools.takeCall(toolCallId) && guard !== undefined) throw paths.notEnforced(guard, 'plain-tools');
  };
  return {
    generateText: (async (callOptions: CallOptions) =>
      runGenerateText(runOptions(callOptions))) as unknown as Interventions['generateText'],
    streamText: ((callOptions: CallOptions) => runStreamText(runOptions(callOptions))) as unknown as Interventions['streamText'],
    use: (handler) => use(handler),
    addHook,
    wrapTools: (tools, wrapOptions) => {
      WRAP_TOOLS_OPTIONS.check(wrapOptions, 'wrapTools');
      paths.enter('plain-tools');
      paths.checkTools(tools);
      scopes.check(tools, registered);
      return wrappedTools.wrap(tools, snapshot, approvalLedger, { runtimeContext: wrapOptions?.runtimeContext, fromModel });
    },
    agentSettings: (settings) => {
      paths.enter('agent');
      const composed = composeAgentSettings(settings, snapshot, isIdle, approvalLedger, agentRuns, (prepared) =>
        scopes.check(prepared.tools, registered),
      );
      ownAgents.add((composed as { prepareCall: object }).prepareCall);
      return composed;
    },
    createAgentUIStream: ((agentOptions: Parameters<typeof agentUIStream>[0]) =>
      agentStream(agentOptions)) as Interventions['createAgentUIStream'],
    createAgentUIStreamResponse: (async ({
      headers,
      status,
      statusText,
      keepAliveMs,
      consumeSseStream,
      ...agentOptions
    }: Parameters<Interventions['createAgentUIStreamResponse']>[0]) =>
      createUIMessageStreamResponse({
        headers,
        status,
        statusText,
        keepAliveMs,
        consumeSseStream,
        stream: await agentStream(agentOptions as Parameters<typeof agentUIStream>[0]),
      })) as Interventions['createAgentUIStreamResponse'],
    // reading it says a model may be wrapped with it: each call of a wrapped tool is then checked to come from one
    get middleware() {
      paths.readMiddleware();
      // from now on a model may be wrapped with it: the runtime's requests are told apart
      ownPrompts.watch();
      return middleware;
    },
    get handlers() {
      return registered.map((entry) => entry.handler);
    },
    inbox: createInterventionsInbox(approvalInbox === undefined ? undefined : { inbox: approvalInbox, ledger: approvalLedger, snapshot }),
  };
}

/** How long a handler may take by default. */
const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;

/** The runtime's handler timeout in ms (`undefined`: none). */
function resolveHandlerTimeout(timeoutMs: number | false | undefined): number | undefined {
  if (timeoutMs === undefined) return DEFAULT_HANDLER_TIMEOUT_MS;
  if (timeoutMs === false) return undefined;
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs))) {
    throw new TypeError(
      `handlerTimeoutMs must be a positive number of milliseconds, or false for no timeout, received ${String(timeoutMs)}.`,
    );
  }
  return timeoutMs;
}

/** The record options, checked for JavaScript callers. */
function checkRecordOptions({
  trail,
  policyVersion,
  actionDigests,
}: InterventionsOptions): Pick<InterventionsOptions, 'trail' | 'policyVersion'> {
  const invalid = (option: string, message: string) => new InvalidOptionError({ owner: 'createInterventions', option, message });
  if (actionDigests !== undefined && typeof actionDigests !== 'boolean') {
    throw invalid('actionDigests', `actionDigests must be a boolean, received ${String(actionDigests)}.`);
  }
  if (policyVersion !== undefined && (typeof policyVersion !== 'string' || policyVersion === '')) {
    throw invalid(
      'policyVersion',
      `policyVersion must be a non-empty string, received ${JSON.stringify(policyVersion) ?? String(policyVersion)}.`,
    );
  }
  if (
    trail !== undefined &&
    (trail === null || typeof trail !== 'object' || typeof trail.append !== 'function' || typeof trail.keyOf !== 'function')
  ) {
    throw invalid('trail', 'trail must be a DecisionTrail: createDecisionTrail({ store, key }).');
  }
  return { trail, policyVersion };
}
