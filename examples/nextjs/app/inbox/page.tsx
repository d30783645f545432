import { cookies } from 'next/headers';
import { interventions } from '../../lib/interventions';
import { runtimeContextOf, USER_COOKIE, userOf } from '../../lib/users';
import { Inbox } from '../_components/inbox';

export const dynamic = 'force-dynamic';

/** The approval inbox: the requests the signed-in person may answer, from every chat, newest first. */
export default async function InboxPage() {
  const user = userOf((await cookies()).get(USER_COOKIE)?.value);
  const { requests } = await interventions().inbox.list({ runtimeContext: runtimeContextOf(user) });
  return <Inbox initialRequests={[...requests]} initialUserId={user.userId} />;
}
