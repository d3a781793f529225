import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import { setUnauthorizedHandler } from '../lib/api';
import { WelcomePage } from '../features/public/WelcomePage';
import { adminRoutes } from '../features/admin/routes';
import { studyRoutes } from '../features/study/routes';
import { RequireAdmin } from './guards';

/** Lets the API client's 401 handling navigate inside the app. */
function UnauthorizedRedirect() {
  const navigate = useNavigate();
  useEffect(() => setUnauthorizedHandler(() => void navigate('/login', { replace: true })), [navigate]);
  return null;
}

// The login page is loaded on demand too: participants never need it on the study pages (decision 0012).
const LoginPage = lazy(() => import('../features/auth/LoginPage').then((m) => ({ default: m.LoginPage })));
// Admins' preview links (docs/decisions/0045), also on demand.
const PreviewPage = lazy(() => import('../features/study/pages/PreviewPage').then((m) => ({ default: m.PreviewPage })));

// Declarative routes: the data router would add ~30 KB gzipped to the participant bundle (DESIGN.md
// section 6 budget); see docs/decisions/0003-web-bundle-budget.md.
export function AppRoutes() {
  return (
    <>
      <UnauthorizedRedirect />
      <Suspense fallback={<PageLoading />}>
        <Routes>
          <Route path="/" element={<WelcomePage />} />
          <Route path="/login" element={<LoginPage />} />
          <Route path="/preview" element={<PreviewPage />} />
          {studyRoutes()}
          <Route element={<RequireAdmin />}>{adminRoutes()}</Route>
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </Suspense>
    </>
  );
}
