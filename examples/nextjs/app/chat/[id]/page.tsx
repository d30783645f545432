import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { CHAT_ID } from '../../../lib/chat-message';
import { chatStore } from '../../../lib/chat-store';
import { USER_COOKIE, userOf } from '../../../lib/users';
import { Chat } from '../../_components/chat';

export const dynamic = 'force-dynamic';

/** A chat, as the server keeps it, for whoever is signed in. */
export default async function ChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!CHAT_ID.test(id)) notFound();
  const stored = await chatStore().load(id);
  const user = userOf((await cookies()).get(USER_COOKIE)?.value);
  return <Chat id={id} initialMessages={[...(stored?.messages ?? [])]} initialVersion={stored?.version ?? 0} initialUserId={user.userId} />;
}
