import type { Context } from '@ai-sdk/provider-utils';
import type { Instructions, ModelMessage, ToolSet } from 'ai';

/** The options of one run, as far as the run reads them. */
export interface RunInput {
  readonly tools?: ToolSet | undefined;
  readonly prompt?: string | ModelMessage[] | undefined;
  readonly messages?: ModelMessage[] | undefined;
  readonly instructions?: Instructions | undefined;
  readonly system?: Instructions | undefined;
  readonly runtimeContext?: Context | undefined;
  readonly abortSignal?: AbortSignal | undefined;
}
