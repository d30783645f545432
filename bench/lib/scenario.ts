/** What the parent asks a child to run, and what the child sends back. */
import type { Budget, Measurement, PairMeasurement } from './measure.ts';

export type Impl = 'raw' | 'handlers' | 'hooks';
/** First-chunk scenarios also run handlers without `afterModelCall`. */
export type FirstChunkImpl = Impl | 'handlers-streaming';
export type Mode = 'generate' | 'stream';
/** Against the hand-written floor (bench/scenarios/floor.ts): the raw SDK, the floor, or ai-interventions. */
export type FloorImpl = 'raw' | 'floor' | 'ours';
/**
 * The tool-latency rows: the floor's, the raw SDK with a `toolApproval` that
 * decides nothing (its approval point, empty), and the raw SDK with the
 * floor's decision in its `toolApproval` (`floorApproval`: the floor's
 * handler calls where ours decides).
 */
export type LatencyImpl = FloorImpl | 'approval-point' | 'floor-at-approval';
/** The tool-latency rows, in the order of the first round. */
export const LATENCY_IMPLS: readonly LatencyImpl[] = ['raw', 'approval-point', 'floor-at-approval', 'floor', 'ours'];

/** How many handlers a tool-latency row calls: none for the raw SDK and its empty approval point, else `k`. */
export function latencyK(impl: LatencyImpl, k: number): number {
  return impl === 'raw' || impl === 'approval-point' ? 0 : k;
}
/**
 * Which no-op lifecycle methods the K handlers define: all four
 * (`beforeModelCall`, `afterModelCall`, `beforeToolCall`, `afterToolCall`),
 * the same without `afterModelCall`, or `beforeToolCall` only.
 */
export type Mix = 'all-four' | 'no-after-model' | 'before-tool';
/** How many tools a request of the tool-set rows gives (one step, no tool call). */
export const TOOL_SET_SIZES: readonly number[] = [1, 20, 50];

/** The method calls of one handler in a run of `steps` steps (N model calls, N − 1 tool calls). */
export function callsPerHandler(mix: Mix, steps: number): number {
  switch (mix) {
    case 'all-four':
      return 2 * steps + 2 * (steps - 1);
    case 'no-after-model':
      return steps + 2 * (steps - 1);
    case 'before-tool':
      return steps - 1;
  }
}

export type Scenario =
  | { readonly kind: 'calibrate' }
  | { readonly kind: 'ai-sdk'; readonly impl: Impl; readonly mode: Mode; readonly k: number; readonly n: number; readonly budget: Budget }
  | {
      readonly kind: 'floor';
      readonly impl: FloorImpl;
      readonly mode: Mode;
      readonly mix: Mix;
      readonly k: number;
      readonly n: number;
      readonly budget: Budget;
    }
  | {
      /** The floor and ours in one process, one run of each in turn (see `measurePair`). */
      readonly kind: 'floor-pair';
      readonly mode: Mode;
      readonly mix: Mix;
      readonly k: number;
      readonly n: number;
      readonly warmupRuns: number;
      readonly timeMs: number;
      /** Keep each run's span (for a CPU profile of the process; see `measurePair`). */
      readonly spans?: boolean;
    }
  | {
      /** Every {@link LATENCY_IMPLS} row in one process, one run of each per round, the order rotated every round. */
      readonly kind: 'tool-latency';
      readonly k: number;
      readonly rounds: number;
      readonly warmupRounds: number;
    }
  | {
      /** Raw, the floor and ours with each of {@link TOOL_SET_SIZES} tools in one process, one request of each per round, rotated. */
      readonly kind: 'tool-set';
      readonly rounds: number;
      readonly warmupRounds: number;
    }
  | { readonly kind: 'langchain' | 'strands'; readonly k: number; readonly n: number; readonly budget: Budget }
  | {
      /** The approval inbox on a redis-server of its own, holding `pending` requests; `samples` of each row (bench/scenarios/inbox-redis.ts). */
      readonly kind: 'inbox-redis';
      readonly pending: number;
      readonly samples: number;
      /** Only a first page on instances that never listed before (one process of its own). */
      readonly newInstances?: boolean;
    }
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

/** One row of the inbox on Redis: an operation's samples, and the Redis commands each sent. */
export interface InboxRedisRow {
  readonly name: string;
  readonly samplesUs: readonly number[];
  /** The commands each sample sent (index i: sample i). */
  readonly commands: readonly number[];
  /** The last sample's commands, by name. */
  readonly breakdown: Readonly<Record<string, number>>;
}

export interface SoakPoint {
  readonly steps: number;
  readonly heapUsedBytes: number;
}

export type Result =
  | { readonly kind: 'calibrate'; readonly expectedBytesPerObject: number; readonly measuredBytesPerObject: number; readonly gcs: number }
  | { readonly kind: 'measurement'; readonly measurement: Measurement; readonly decisionsPerRun: number }
  | { readonly kind: 'pair'; readonly pair: PairMeasurement }
  | { readonly kind: 'first-chunk'; readonly results: readonly FirstChunkResult[] }
  | {
      readonly kind: 'tool-latency';
      /** Per {@link LATENCY_IMPLS} row, index r of each list from round r. */
      readonly rows: readonly {
        readonly impl: LatencyImpl;
        /** µs from the model's first tool-call part to that tool's `execute`, one per round. */
        readonly fromToolCallUs: readonly number[];
        /** µs from the model's finish part of the same step to that `execute`. */
        readonly fromFinishUs: readonly number[];
      }[];
    }
  | {
      readonly kind: 'tool-set';
      /** Per implementation and size, index r of each list from round r. */
      readonly rows: readonly { readonly impl: FloorImpl; readonly tools: number; readonly requestUs: readonly number[] }[];
    }
  | { readonly kind: 'soak'; readonly points: readonly SoakPoint[]; readonly runs: number; readonly elapsedMs: number }
  | {
      readonly kind: 'inbox-redis';
      readonly pending: number;
      /** `redis-server --version`. */
      readonly redis: string;
      /** How long putting `filledBy` of them took, `fillConcurrency` at a time. */
      readonly fillMs: number;
      readonly filledBy: number;
      readonly fillConcurrency: number;
      /** The whole process, from its start. */
      readonly wallMs: number;
      /** The entries of the lists the manager's inbox reads. */
      readonly audienceSize: number;
      readonly pageSize: number;
      readonly rows: readonly InboxRedisRow[];
    };

export interface ChildReport {
  readonly result: Result;
  /** Where the library's bare imports were resolved (bench/lib/resolve-from-bench.ts). */
  readonly redirects: Readonly<Record<string, string>>;
  readonly wallMs: number;
}
