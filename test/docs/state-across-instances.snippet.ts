/**
 * The README's "State across instances" snippet, as it is written there:
 * `npm run typecheck` compiles it (it is never run). Keep the two in sync.
 */
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import { Redis } from 'ioredis';
import {
  createApprovalLedger, createInterventions, createRedisMessageQueue, createRedisStore, humanApproval, rateLimit,
} from 'ai-interventions';

declare const model: LanguageModel;
declare const tools: ToolSet;
declare const messages: ModelMessage[];
declare const userId: string;
declare const chatId: string;

export async function stateAcrossInstances() {
  // --- README snippet starts here ---
  const client = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 }); // fail fast while Redis is away
  const store = createRedisStore({ client });

  const interventions = createInterventions({
    handlers: [
      humanApproval({ tools: ['delete_*'], remember: { store }, timeoutMs: 15 * 60_000 }),
      rateLimit({ limit: 20, windowMs: 60_000, per: 'user', store }),
    ],
    approvalSecret: process.env.APPROVAL_SECRET,
    approvalLedger: createApprovalLedger({ store }),
  });

  // the instance streaming the chat
  const result = interventions.streamText({
    model, tools, messages, maxSteps: 10,
    runtimeContext: { userId, sessionId: chatId },
    steering: createRedisMessageQueue({ client, key: `steering:${chatId}` }),
  });
  // any instance, e.g. the route that receives the user's correction
  await createRedisMessageQueue({ client, key: `steering:${chatId}` }).push('Use Paris, Texas instead.');
  // --- README snippet ends here ---
  return result;
}
