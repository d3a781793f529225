import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from '../../lib/router';
import { currentUser, isStaff } from '../../lib/session';
import { logout } from '../../lib/logout';
import { ScriptedModelBanner } from '../../features/admin/ScriptedModelBanner';

/** Header layout for `/app` and `/admin`: product name, Admin link for admins, email, Logout. */
export function AdminLayout({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const user = currentUser();
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <div className="min-h-dvh">
        <header className="border-b border-brand-900 bg-brand-900 text-white">
          <nav aria-label="Main" className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
            <Link to="/app" className="text-lg font-bold tracking-tight">
              StudyChat
            </Link>
            {isStaff(user) && (
              <Link
                to="/admin"
                className="rounded px-2 py-1 font-medium text-brand-100 hover:bg-white/10 hover:text-white"
              >
                Admin
              </Link>
            )}
            <div className="ml-auto flex items-center gap-3">
              <span className="max-w-[50vw] truncate text-sm text-brand-100" title={user?.email}>
                {user?.email}
              </span>
              <button
                type="button"
                onClick={() => void logout((path) => navigate(path, { replace: true }))}
                className="min-h-11 rounded-lg border border-white/40 px-4 text-sm font-semibold hover:bg-white/10"
              >
                Logout
              </button>
            </div>
          </nav>
        </header>
        <ScriptedModelBanner />
        <main className="mx-auto max-w-7xl px-4 py-6 sm:py-8">{children}</main>
      </div>
    </QueryClientProvider>
  );
}
