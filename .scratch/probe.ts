import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText, tool, isStepCount } from 'ai';
import { z } from 'zod';
import { startOpenAICompatibleServer, replyText, replyToolCalls, toolCall } from '../test/helpers/openai-compatible-server.ts';

for (const api of ['chat', 'responses'] as const) for (const stream of [false, true]) {
  const server = await startOpenAICompatibleServer({ script: [
    replyToolCalls(toolCall('call_a', 'search', { q: 'tmp' }), toolCall('call_b', 'search', { q: 'x' })),
    replyText('All done now.'),
  ]});
  const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test' });
  const model = api === 'chat' ? provider.chat('gpt-test') : provider.responses('gpt-test');
  const tools = { search: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` }) };
  const opts = { model, tools, stopWhen: isStepCount(5), system: 'Be nice', prompt: 'Search' };
  let out;
  if (stream) { const r = streamText({ ...opts, onError: ({error}) => console.error('ERR', error) }); out = { text: await r.text, steps: await r.steps, usage: await r.totalUsage }; }
  else { const r = await generateText(opts); out = { text: r.text, steps: r.steps, usage: r.totalUsage }; }
  console.log('=====', api, stream, out.text, out.steps.map(s => [s.finishReason, s.rawFinishReason, s.usage.inputTokens, s.usage.outputTokens]), out.usage);
  console.log(JSON.stringify(server.requests.map(r => ({ path: r.path, body: { ...r.body, tools: undefined } })), null, 1));
  await server.close();
}
