import { Navigate, useNavigate } from 'react-router';
import { Card } from '../../components/Card';
import { isLoggedIn } from '../../lib/session';
import { LoginForm } from './LoginForm';
import { loginAndStoreToken } from './login';

/** `/login`: on success stores the token and goes to `/app`; already logged in goes there at once. */
export function LoginPage() {
  const navigate = useNavigate();
  if (isLoggedIn()) return <Navigate to="/app" replace />;
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center px-4 py-10">
      <Card>
        <h1 className="text-2xl font-bold text-slate-900">Log in</h1>
        <p className="mt-1 text-slate-600">Researchers and administrators log in here.</p>
        <div className="mt-6">
          <LoginForm
            onSubmit={async (email, password, totp) => {
              const result = await loginAndStoreToken(email, password, undefined, totp);
              // Two-factor is required here and not set up yet: the Security page is the only way in.
              navigate(result.totpEnrolmentRequired ? '/admin/security' : '/app', { replace: true });
            }}
          />
        </div>
      </Card>
      <p className="mt-6 text-center text-sm text-slate-600">
        Taking part in a study? Please use the link from Prolific instead.
      </p>
    </main>
  );
}
