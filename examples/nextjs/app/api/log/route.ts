import { executions } from '../../../lib/activity-log';

// example-only: which tools really ran, for the page's readers and the e2e tests
export const dynamic = 'force-dynamic';

export function GET(request: Request) {
  const chatId = new URL(request.url).searchParams.get('chatId') ?? undefined;
  return Response.json({ executions: executions(chatId) });
}
