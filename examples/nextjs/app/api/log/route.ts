import { executions } from '../../../lib/activity-log';
import { modelRequests } from '../../../lib/model';

// example-only: which tools really ran, and what the scripted model was sent, for the page's readers and the e2e tests
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  const chatId = new URL(request.url).searchParams.get('chatId') ?? undefined;
  return Response.json({ executions: executions(chatId), modelRequests: await modelRequests() });
}
