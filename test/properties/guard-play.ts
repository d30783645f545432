/**
 * Plays one guard-coverage scenario through an entry path: the provider's
 * turns, then (when handlers asked) the person's answers as a resume, then
 * that resume once more (a replay). What ran is recorded by the tools
 * themselves, and each probe guard records when it is called.
 */
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import {
  dynamicTool,
  generateText,
  isStepCount,
  type LanguageModel,
  type ModelMessage,
  readUIMessageStream,
  streamText,
  type Tool,
  type ToolCallRepairFunction,
  ToolLoopAgent,
  type ToolSet,
  tool,
  type UIMessageChunk,
  wrapLanguageModel,
} from 'ai';
import { z } from 'zod';
import {
  approvalAnswer,
  createInterventions,
  createRedactor,
  type DecisionRecord,
  defineHandler,
  type EntryPath,
  type GateToolCallsContext,
  guardTools,
  type HookName,
  InterventionActions,
  type InterventionHandlerLike,
  type Interventions,
  type InterventionsOptions,
  type InterventionUIMessage,
  mergeHooks,
  type ToolCallActionType,
  toolScope,
  trustToolAnnotations,
} from '../../src/index.ts';
import { type ApprovalRequestPart, approvalRequests } from '../helpers/approval-requests.ts';
import { scriptedModel, step, text } from '../helpers/scripted-model.ts';
import {
  ANNOTATED,
  type CallSpec,
  type GateSpec,
  type HandlerSpec,
  type Answer as PersonAnswer,
  type ProbeKind,
  patternOf,
  type Scenario,
  type Scope,
  TOOLS,
} from './guard-oracle.ts';

export const WRAPPERS = [
  'generateText',
  'streamText',
  'agent',
  'agent-ui-stream',
  'guardTools',
  'guardTools-stream',
  'middleware',
] as const;
export type Wrapper = (typeof WRAPPERS)[number];

/** The entry path of the capability table each wrapper takes. */
export const PATH_OF: { readonly [WRAPPER in Wrapper]: EntryPath } = {
  generateText: 'wrappers',
  streamText: 'wrappers',
  agent: 'agent',
  'agent-ui-stream': 'agent-ui-stream',
  guardTools: 'plain-tools',
  'guardTools-stream': 'plain-tools',
  middleware: 'middleware',
};

/**
 * Whether a wrapper is tools guarded for the plain SDK: `guardTools` with
 * `generateText`, `interventions.wrapTools` with `streamText` (the model
 * wrapped with the middleware or not), and the middleware with `streamText`
 * (the tools wrapped or not).
 */
export const isPlain = (wrapper: Wrapper) => wrapper === 'guardTools' || wrapper === 'guardTools-stream' || wrapper === 'middleware';

/** The layers a plain call of a scenario is given (every path of a run has both). */
export function layersOf(wrapper: Wrapper, scenario: Scenario): { readonly model: boolean; readonly tools: boolean } {
  switch (wrapper) {
    case 'guardTools':
      return { model: false, tools: true };
    case 'guardTools-stream':
      return { model: scenario.wrapsModel, tools: true };
    case 'middleware':
      return { model: true, tools: scenario.wrapsTools };
    default:
      return { model: true, tools: true };
  }
}

/** One execution, as the tool saw it. */
export interface Ran {
  readonly tool: string;
  readonly tag: string;
  /** 0: the provider's turns; 1: the resume; 2: the replay. */
  readonly phase: number;
}

/** What one request (the turns, the resume or the replay) came to. */
export interface Phase {
  /** Every request the model was sent. */
  readonly prompts: readonly LanguageModelV4CallOptions['prompt'][];
  /** How many answers the phase's model had scripted. */
  readonly scripted: number;
  readonly requests: readonly ApprovalRequestPart[];
  readonly decisions: readonly DecisionRecord[];
  /** The probes called in this phase. */
  readonly acted: ReadonlySet<ProbeKind>;
  /** What the run failed with, if it did (a refusal of the path included). */
  readonly error: unknown;
}

export interface Played {
  readonly ran: readonly Ran[];
  readonly phases: readonly Phase[];
  /** The probes registered (not refused). */
  readonly registered: readonly ProbeKind[];
  /** The probes whose registration on a path in use was refused, with the error. */
  readonly refused: ReadonlyArray<{ readonly kind: ProbeKind; readonly error: unknown }>;
}

/** The library's own matcher, as an app's gate or hook would use it on its tools. */
function matcherOf(scope: Scope, tools: ToolSet) {
  const pattern = patternOf(scope);
  if (pattern === undefined) return () => true;
  const matches = toolScope(pattern);
  return (toolName: string) => matches(toolName, tools[toolName]);
}

function handlerOf(spec: HandlerSpec, index: number): InterventionHandlerLike {
  const tools = patternOf(spec.scope);
  return defineHandler({
    name: `h${index}-${spec.behaviour}`,
    mode: spec.mode,
    onError: spec.onError,
    ...(spec.behaviour === 'hang' ? { timeoutMs: 5 } : {}),
    ...(spec.declares ? { toolCallActions: declaredActions(spec.behaviour) } : {}),
    ...(tools === undefined ? {} : { tools: [tools] }),
    beforeToolCall: ({ toolCall }) => {
      switch (spec.behaviour) {
        case 'throw':
          throw new Error(`h${index} failed`);
        case 'hang':
          return new Promise<never>(() => {});
        default:
          return actionOf(spec.behaviour, toolCall.toolName, '');
      }
    },
  });
}

/** The actions a handler that `declares` says it returns: the one it does (none besides proceed for the others). */
function declaredActions(behaviour: HandlerSpec['behaviour']): ToolCallActionType[] {
  switch (behaviour) {
    case 'deny':
    case 'guide':
    case 'confirm':
    case 'transform':
      return [behaviour];
    default:
      return [];
  }
}

/** The action of a decider that answers (a transform appends `+t` to the call's tag). */
function actionOf(behaviour: GateSpec['behaviour'], toolName: string, label: string) {
  switch (behaviour) {
    case 'deny':
      return InterventionActions.deny(`${label}no ${toolName}`);
    case 'guide':
      return InterventionActions.guide(`${label}try again, ${toolName}`);
    case 'confirm':
      return InterventionActions.confirm(`${label}run ${toolName}?`);
    case 'transform':
      return InterventionActions.transform((draft) => {
        if (!('toolCall' in draft)) return;
        const input = draft.toolCall.input as { tag?: unknown };
        draft.toolCall.input = { tag: `${String(input.tag)}+t` };
      });
    case 'proceed':
      return InterventionActions.proceed();
  }
}

/** A gate's action for one call: its behaviour in its scope, proceed elsewhere. */
function gateOf(spec: GateSpec, tools: ToolSet) {
  const inScope = matcherOf(spec.scope, tools);
  return ({ calls }: GateToolCallsContext) =>
    calls.map((call) => (inScope(call.toolName) ? actionOf(spec.behaviour, call.toolName, 'gate: ') : InterventionActions.proceed()));
}

/** A probe of `kind`: what it registers, and how, at creation or on a runtime in use. */
function probeOf(kind: ProbeKind, act: (kind: ProbeKind) => void) {
  const proceed = () => InterventionActions.proceed();
  switch (kind) {
    case 'beforeInvocation':
    case 'beforeModelCall':
    case 'afterModelCall':
    case 'beforeToolCall':
    case 'afterToolCall': {
      const handler = { name: `probe-${kind}`, [kind]: () => (act(kind), proceed()) } as InterventionHandlerLike;
      return { handlers: [handler], register: (interventions: Interventions) => interventions.use(handler) };
    }
    case 'redactToolError': {
      const handler = { name: 'probe-redactToolError', redactToolError: (error: unknown) => (act(kind), error) } as never;
      return { handlers: [handler], register: (interventions: Interventions) => interventions.use(handler) };
    }
    case 'redactors':
      return {
        redactors: [createRedactor({ name: 'probe', rules: [{ pattern: /SECRET/, replacement: () => (act(kind), '[X]') }] })],
        register: undefined,
      };
    default: {
      const hook = () => {
        act(kind);
      };
      return {
        hooks: { [kind]: hook },
        register: (interventions: Interventions) => interventions.addHook(kind as HookName, hook as never),
      };
    }
  }
}

function modelOf(turns: readonly (readonly CallSpec[])[]) {
  return scriptedModel(
    ...turns.map((calls) =>
      step(
        ...calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: call.tool,
          input: call.json ? JSON.stringify({ tag: call.tag }) : `{"tag": ${call.tag}`,
        })),
      ),
    ),
    step(text('done SECRET')),
  );
}

function answerOf(request: ApprovalRequestPart, answer: PersonAnswer): ReturnType<typeof approvalAnswer> {
  switch (answer) {
    case 'approve':
      return approvalAnswer({ id: request.approvalId, approved: true });
    case 'refuse':
      return approvalAnswer({ id: request.approvalId, approved: false, reason: 'no' });
    case 'edit':
      return approvalAnswer({ id: request.approvalId, approved: true, input: { tag: 'e' } });
  }
}

/** The tool message answering `requests`, the n-th with `answers[n]`. */
function answersMessage(requests: readonly ApprovalRequestPart[], answers: readonly PersonAnswer[]): ModelMessage {
  return {
    role: 'tool',
    content: requests.map((request, index) => {
      const { approved, reason } = answerOf(request, answers[index] ?? 'refuse');
      return { type: 'tool-approval-response', approvalId: request.approvalId, approved, ...(reason === undefined ? {} : { reason }) };
    }),
  };
}

/** What addToolApprovalResponse does to the assistant message: each pending part answered, the n-th with `answers[n]`. */
function answeredMessage(message: InterventionUIMessage, answers: readonly PersonAnswer[]): InterventionUIMessage {
  let index = 0;
  return {
    ...message,
    parts: message.parts.map((part) => {
      if (!('approval' in part) || part.state !== 'approval-requested') return part;
      const answer = answers[index++] ?? 'refuse';
      const { approved, reason } = answerOf({ approvalId: part.approval.id } as ApprovalRequestPart, answer);
      return {
        ...part,
        state: 'approval-responded' as const,
        approval: { ...part.approval, approved, ...(reason === undefined ? {} : { reason }) },
      };
    }) as InterventionUIMessage['parts'],
  };
}

/** The tools of a scenario: what ran is recorded (`crash` throws once recorded), each with its annotations. */
function toolsOf(scenario: Scenario, record: (name: string, tag: string) => string): ToolSet {
  const inputSchema = z.object({ tag: z.string() });
  const make = (name: string) => {
    const hints = scenario.annotations[name]?.hints;
    const execute = async ({ tag }: { tag: string }) => {
      const ran = record(name, tag);
      if (name === 'crash') throw new Error('crash failed');
      return ran;
    };
    return tool({ inputSchema, execute, ...(hints === undefined ? {} : { metadata: { annotations: hints } }) });
  };
  const staticTools: ToolSet = Object.fromEntries(ANNOTATED.map((name) => [name, make(name)]));
  const trusted = ANNOTATED.filter((name) => scenario.annotations[name]?.trusted === true);
  const marked: ToolSet = trustToolAnnotations(Object.fromEntries(trusted.map((name) => [name, staticTools[name] as Tool])));
  const dyn = dynamicTool({ inputSchema, execute: async (input) => record('dyn', (input as { tag: string }).tag) });
  return Object.fromEntries(TOOLS.map((name) => [name, (name === 'dyn' ? dyn : (marked[name] ?? staticTools[name])) as Tool]));
}

export async function play(wrapper: Wrapper, scenario: Scenario): Promise<Played> {
  const ran: Ran[] = [];
  let phase = 0;
  let acted = new Set<ProbeKind>();
  const act = (kind: ProbeKind) => void acted.add(kind);
  const record = (name: string, tag: string) => {
    ran.push({ tool: name, tag, phase });
    return `${name} ran with ${tag}`;
  };
  const tools = toolsOf(scenario, record);
  const decisions: DecisionRecord[] = [];
  const inScopeOfBlock = scenario.block === undefined ? undefined : matcherOf(scenario.block, tools);
  const probes = scenario.probes.map((kind) => ({ kind, ...probeOf(kind, act) }));
  // the guardTools runtime takes no redactors: that probe is not registered there
  const early = scenario.late ? [] : probes.filter((probe) => wrapper !== 'guardTools' || probe.kind !== 'redactors');
  const options: InterventionsOptions = {
    handlers: [...scenario.handlers.map(handlerOf), ...early.flatMap((probe) => probe.handlers ?? [])],
    handlerTimeoutMs: 5_000,
    redactors: early.flatMap((probe) => probe.redactors ?? []),
    hooks: mergeHooks(
      {
        onDecision: ({ record: decision }) => void decisions.push(decision),
        gateToolCalls: scenario.gates.map((gate) => gateOf(gate, tools)),
        preToolCall: ({ call }) =>
          inScopeOfBlock?.(call.toolName) === true ? { error: new Error(`blocked ${call.toolName} by a hook`) } : undefined,
      },
      ...early.map((probe) => probe.hooks),
    ),
  };
  const registered: ProbeKind[] = early.map((probe) => probe.kind);
  const refused: Array<{ kind: ProbeKind; error: unknown }> = [];
  const repairToolCall: ToolCallRepairFunction<ToolSet> | undefined = scenario.repair
    ? async ({ toolCall }) => ({
        ...toolCall,
        toolName: (TOOLS as readonly string[]).includes(toolCall.toolName) ? toolCall.toolName : 'beta',
        input: /^\{"tag":"[a-z]"\}$/.test(toolCall.input) ? toolCall.input : '{"tag":"r"}',
      })
    : undefined;

  let interventions: Interventions | undefined;
  let guarded: ToolSet | undefined;
  /** The runtime, and the path taken once: refusals of the path are the phase's error. */
  const setUp = () => {
    if (wrapper === 'guardTools') {
      const { redactors: _none, ...guardOptions } = options;
      guarded ??= guardTools(tools, guardOptions);
      return;
    }
    interventions ??= createInterventions(options);
    const layers = layersOf(wrapper, scenario);
    // reading the middleware first says the model is wrapped, for the tools wrapped next
    if (isPlain(wrapper) && layers.model) void interventions.middleware;
    if (layers.tools && isPlain(wrapper)) guarded ??= interventions.wrapTools(tools);
    if (wrapper === 'agent' || wrapper === 'agent-ui-stream') interventions.agentSettings({ model: modelOf([]), tools });
    if (!scenario.late || registered.length + refused.length > 0) return;
    // late: registered once the path is in use; a path that cannot enforce one refuses it (it is then not registered)
    for (const probe of probes) {
      if (probe.register === undefined) continue;
      try {
        probe.register(interventions);
        registered.push(probe.kind);
      } catch (error) {
        refused.push({ kind: probe.kind, error });
      }
    }
  };

  const once = async (
    scripted: readonly (readonly CallSpec[])[],
    messages: ModelMessage[],
    ui: InterventionUIMessage[],
  ): Promise<Phase & { ui?: InterventionUIMessage[] }> => {
    acted = new Set();
    const from = decisions.length;
    const model = modelOf(scripted);
    const stopWhen = isStepCount(scripted.length + 2);
    let requests: readonly ApprovalRequestPart[] = [];
    let nextUi: InterventionUIMessage[] | undefined;
    let error: unknown;
    try {
      setUp();
      const call = {
        model,
        tools: guarded ?? tools,
        stopWhen,
        messages,
        ...(repairToolCall === undefined ? {} : { repairToolCall }),
      };
      if (wrapper === 'generateText' || wrapper === 'guardTools') {
        const result = await (wrapper === 'guardTools' ? generateText(call) : (interventions as Interventions).generateText(call));
        requests = approvalRequests(result.content);
        messages.push(...result.responseMessages);
      } else if (wrapper === 'streamText' || wrapper === 'guardTools-stream' || wrapper === 'middleware') {
        const runtime = interventions as Interventions;
        const wrapsModel = wrapper === 'middleware' || (wrapper === 'guardTools-stream' && scenario.wrapsModel);
        const streaming = {
          ...call,
          model: wrapsModel ? wrapLanguageModel({ model, middleware: runtime.middleware }) : (model as LanguageModel),
          onError: () => {},
        };
        const result = wrapper === 'streamText' ? runtime.streamText(streaming) : streamText(streaming);
        for await (const part of result.fullStream) if (part.type === 'error') error ??= part.error;
        requests = approvalRequests(await result.content);
        messages.push(...(await result.responseMessages));
      } else if (wrapper === 'agent') {
        const { model: agentModel, tools: agentTools, ...rest } = call;
        const agent = new ToolLoopAgent((interventions as Interventions).agentSettings({ model: agentModel, tools: agentTools, ...rest }));
        const result = await agent.generate({ messages });
        requests = approvalRequests(result.content);
        messages.push(...result.responseMessages);
      } else {
        const { model: agentModel, tools: agentTools, stopWhen: agentStop, ...rest } = call;
        const { messages: _history, ...settings } = rest;
        const agent = new ToolLoopAgent(
          (interventions as Interventions).agentSettings({ model: agentModel, tools: agentTools, stopWhen: agentStop, ...settings }),
        );
        const chunks: UIMessageChunk[] = [];
        for await (const chunk of await (interventions as Interventions).createAgentUIStream({ agent, uiMessages: ui })) {
          chunks.push(chunk);
          if (chunk.type === 'error') error ??= new Error(chunk.errorText);
        }
        const assistant = await messageOf(chunks, ui.at(-1)?.role === 'assistant' ? ui.at(-1) : undefined);
        requests = assistant.parts.flatMap((part) =>
          'approval' in part && part.state === 'approval-requested'
            ? [
                {
                  approvalId: part.approval.id,
                  toolCall: {
                    toolCallId: part.toolCallId,
                    toolName: part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length),
                    input: part.input,
                  },
                } as ApprovalRequestPart,
              ]
            : [],
        );
        nextUi = [...(ui.at(-1)?.role === 'assistant' ? ui.slice(0, -1) : ui), assistant];
      }
    } catch (thrown) {
      // the first error (a stream's error part) says why; what reading the result throws after it says less
      error ??= thrown;
    }
    return {
      prompts: model.calls.map((request) => request.prompt),
      scripted: scripted.length + 1,
      requests,
      decisions: decisions.slice(from),
      acted,
      error,
      ...(nextUi === undefined ? {} : { ui: nextUi }),
    };
  };

  // the history the first call is given, and grows with what it answers
  const history: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const user: InterventionUIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }] };
  const first = await once(scenario.turns, history, [user]);
  const phases: Phase[] = [first];
  if (first.requests.length === 0 || first.error !== undefined) return { ran, phases, registered, refused };
  // the provider goes on where it stopped: the turns it had not sent yet
  const rest = scenario.turns.slice(first.prompts.length);
  const resumed: readonly ModelMessage[] = [...history];
  const answeredUi = (answers: readonly PersonAnswer[]) => {
    const assistant = first.ui?.at(-1);
    return first.ui === undefined || assistant === undefined ? [] : [...first.ui.slice(0, -1), answeredMessage(assistant, answers)];
  };
  phase = 1;
  phases.push(await once(rest, [...resumed, answersMessage(first.requests, scenario.answers)], answeredUi(scenario.answers)));
  if (scenario.replay !== undefined) {
    phase = 2;
    phases.push(await once(rest, [...resumed, answersMessage(first.requests, scenario.replay)], answeredUi(scenario.replay)));
  }
  return { ran, phases, registered, refused };
}

/** The assistant message a UI message stream builds (on `last`, when the stream continues it). */
async function messageOf(chunks: readonly UIMessageChunk[], last: InterventionUIMessage | undefined): Promise<InterventionUIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: InterventionUIMessage | undefined;
  for await (const update of readUIMessageStream<InterventionUIMessage>({
    stream,
    ...(last === undefined ? {} : { message: structuredClone(last) }),
  })) {
    message = update;
  }
  return message ?? { id: 'a1', role: 'assistant', parts: [] };
}
