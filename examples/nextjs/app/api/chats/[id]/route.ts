import { CHAT_ID } from '../../../../lib/chat-message';
import { chatStore } from '../../../../lib/chat-store';

export const dynamic = 'force-dynamic';

// the conversation the server keeps (the page reloads it when someone else changed it)
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!CHAT_ID.test(id)) return new Response('No such chat.', { status: 404 });
  const stored = await chatStore().load(id);
  return Response.json(stored ?? { messages: [], version: 0 }, { headers: { 'cache-control': 'no-store' } });
}
