import { generateId } from 'ai';
import { redirect } from 'next/navigation';

export const dynamic = 'force-dynamic';

/** A new chat: its id is in the URL, so a reload or another person's browser opens the same conversation. */
export default function NewChat() {
  redirect(`/chat/${generateId()}`);
}
