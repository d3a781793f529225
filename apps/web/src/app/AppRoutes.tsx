import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useNavigate } from '../lib/router';
import { PageLoading } from '../components/PageLoading';
import { setUnauthorizedHandler } from '../lib/api';
import { WelcomePage } from '../features/public/WelcomePage';
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
// The admin area: its route table, layout and pages, on demand.
const AdminArea = lazy(() => import('../features/admin/AdminArea').then((m) => ({ default: m.AdminArea })));
// Admins' preview links (docs/decisions/0045), also on demand.
const PreviewPage = lazy(() => import('../features/study/pages/PreviewPage').then((m) => ({ default: m.PreviewPage })));

// One route table on wouter (docs/decisions/0079): the first route that matches is shown.
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
          <Route
            path="/app"
            element={
              <RequireAdmin>
                <AdminArea />
              </RequireAdmin>
            }
          />
          <Route
            path="/admin/*?"
            element={
              <RequireAdmin>
                <AdminArea />
              </RequireAdmin>
            }
          />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </Suspense>
    </>
  );
}
