import type { Context } from '@ai-sdk/provider-utils';
import type {
  Experimental_Steering,
  LanguageModel,
  ModelMessage,
  PrepareStepFunction,
  StepResult,
  StopCondition,
  ToolApprovalConfiguration,
  ToolCallRepairFunction,
  ToolSet,
} from 'ai';
import type { LoopOptions } from '../loop/loop-control.ts';

/** The options of `generateText` / `streamText`, as far as the runtime touches them. */
export interface CallOptions {
  model: LanguageModel;
  tools?: ToolSet;
  toolApproval?: ToolApprovalConfiguration<ToolSet, Context>;
  prepareStep?: PrepareStepFunction<ToolSet, Context>;
  repairToolCall?: ToolCallRepairFunction<ToolSet>;
  experimental_repairToolCall?: ToolCallRepairFunction<ToolSet>;
  activeTools?: readonly string[];
  abortSignal?: AbortSignal;
  runtimeContext?: Context;
  prompt?: string | ModelMessage[];
  messages?: ModelMessage[];
  onStepEnd?: (step: StepResult<ToolSet>) => unknown;
  onStepFinish?: (step: StepResult<ToolSet>) => unknown;
  stopWhen?: StopCondition<ToolSet, Context> | readonly StopCondition<ToolSet, Context>[];
  experimental_steering?: Experimental_Steering;
  experimental_toolApprovalSecret?: string | Uint8Array;
  steering?: LoopOptions['steering'];
  followUp?: LoopOptions['followUp'];
  maxSteps?: LoopOptions['maxSteps'];
  [option: string]: unknown;
}
