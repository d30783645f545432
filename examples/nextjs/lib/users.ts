/**
 * The demo's people and its stand-in for a sign-in: a cookie says who is
 * using this browser (a real app reads its own session on the server). The
 * server reads it from each request, so who may answer an approval is the
 * server's to check; the page reads it to word things for that person.
 * No server-only import: the page uses it too.
 */
export const USERS = {
  sam: { userId: 'sam', name: 'Sam', role: 'developer' },
  morgan: { userId: 'morgan', name: 'Morgan', role: 'manager' },
} as const;

export type UserKey = keyof typeof USERS;
export type DemoUser = (typeof USERS)[UserKey];

/** The cookie that holds who is signed in. */
export const USER_COOKIE = 'demo-user';

/** The user a cookie value names; Sam when it names nobody. */
export function userOf(key: string | undefined): DemoUser {
  return key !== undefined && Object.hasOwn(USERS, key) ? USERS[key as UserKey] : USERS.sam;
}

/** How a user id reads on the page: a known person's name, else the id itself. */
export function nameOf(userId: string): string {
  return Object.values(USERS).find((user) => user.userId === userId)?.name ?? userId;
}

/**
 * Who a person is, for the runtime: the trusted `runtimeContext` of their
 * requests (who may answer an approval is read from it), with the chat a
 * request belongs to (`sessionId`: what "approve for this chat" covers, and
 * the conversation an inbox request names).
 */
export function runtimeContextOf(user: DemoUser, chatId?: string): { userId: string; role: string; sessionId?: string } {
  return { userId: user.userId, role: user.role, ...(chatId === undefined ? {} : { sessionId: chatId }) };
}

/** The signed-in user of a request (the demo's cookie; a real app reads its session). */
export function signedInUser(request: Request): DemoUser {
  const cookies = request.headers.get('cookie') ?? '';
  const value = cookies
    .split(';')
    .map((pair) => pair.trim().split('='))
    .find(([name]) => name === USER_COOKIE)?.[1];
  return userOf(value === undefined ? undefined : decodeURIComponent(value));
}
