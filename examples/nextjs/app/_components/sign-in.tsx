'use client';

import { USER_COOKIE, USERS } from '../../lib/users';

/** The demo's stand-in for a sign-in: who uses this browser, kept in a cookie that every request carries. */
export function SignIn({ userId, onChange }: { userId: string; onChange: (userId: string) => void }) {
  const signIn = (next: string) => {
    // biome-ignore lint/suspicious/noDocumentCookie: the demo's stand-in for a sign-in
    document.cookie = `${USER_COOKIE}=${encodeURIComponent(next)}; path=/; samesite=lax; max-age=31536000`;
    onChange(next);
  };
  return (
    <label className="user">
      Signed in as{' '}
      <select data-testid="user-select" value={userId} onChange={(event) => signIn(event.currentTarget.value)}>
        {Object.values(USERS).map((user) => (
          <option key={user.userId} value={user.userId}>
            {user.name} ({user.role})
          </option>
        ))}
      </select>
    </label>
  );
}
