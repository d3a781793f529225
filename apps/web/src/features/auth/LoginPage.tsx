import { Link, Navigate, useNavigate } from '../../lib/router';
import { Alert } from '../../components/Alert';
import { Card } from '../../components/Card';
import { isLoggedIn } from '../../lib/session';
import { LoginForm } from '../../components/LoginForm';
import { loginAndStoreToken } from '../../lib/login';
import { studyLandingUrl } from './study-landing';

/**
 * `/login`: on success stores the token and goes to `/app`; already logged in goes there at once. A
 * participant sent here because their session ended (the browser still holds their study ids) is told so
 * and linked back to their study landing, where logging in again continues where they were.
 */
export function LoginPage() {
  const navigate = useNavigate();
  if (isLoggedIn()) return <Navigate to="/app" replace />;
  const landing = studyLandingUrl();
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center px-4 py-10">
      {landing && (
        <Alert tone="warning" className="mb-6">
          <p className="font-semibold">Your study session has ended.</p>
          <p className="mt-1">
            To continue the study where you left off, go back to the study page and log in again with your study login.
          </p>
          <Link to={landing} className="mt-3 inline-flex min-h-11 items-center font-semibold underline">
            Return to the study
          </Link>
        </Alert>
      )}
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
