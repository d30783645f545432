/** What the parent asks a child to run, and what the child sends back. */
import type { Budget, Measurement } from './measure.ts';

export type Impl = 'raw' | 'handlers' | 'hooks';
/** First-chunk scenarios also run handlers without `afterModelCall`. */
export type FirstChunkImpl = Impl | 'handlers-streaming';
export type Mode = 'generate' | 'stream';

export type Scenario =
  | { readonly kind: 'calibrate' }
  | { readonly kind: 'ai-sdk'; readonly impl: Impl; readonly mode: Mode; readonly k: number; readonly n: number; readonly budget: Budget }
  | { readonly kind: 'langchain' | 'strands'; readonly k: number; readonly n: number; readonly budget: Budget }
  | {
      readonly kind: 'first-chunk';
      readonly impl: FirstChunkImpl;
      readonly k: number;
      readonly n: number;
      readonly samples: number;
      readonly warmupRuns: number;
    }
  | {
      readonly kind: 'soak';
      readonly impl: Impl;
      readonly mode: Mode;
      readonly k: number;
      readonly n: number;
      readonly totalSteps: number;
      readonly intervalSteps: number;
      readonly warmupRuns: number;
    };

export interface FirstChunkResult {
  readonly shape: 'loop' | 'paced';
  /** µs from the call to the first text-delta, one per run. */
  readonly samplesUs: readonly number[];
}

export interface SoakPoint {
  readonly steps: number;
  readonly heapUsedBytes: number;
}

export type Result =
  | { readonly kind: 'calibrate'; readonly expectedBytesPerObject: number; readonly measuredBytesPerObject: number; readonly gcs: number }
  | { readonly kind: 'measurement'; readonly measurement: Measurement; readonly decisionsPerRun: number }
  | { readonly kind: 'first-chunk'; readonly results: readonly FirstChunkResult[] }
  | { readonly kind: 'soak'; readonly points: readonly SoakPoint[]; readonly runs: number; readonly elapsedMs: number };

export interface ChildReport {
  readonly result: Result;
  /** Where the library's bare imports were resolved (bench/lib/resolve-from-bench.ts). */
  readonly redirects: Readonly<Record<string, string>>;
  readonly wallMs: number;
}
