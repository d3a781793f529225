import { lazy, Suspense, type ReactNode } from 'react';
import { AdminLayout } from '../../app/layouts/AdminLayout';
import { Spinner } from '../../components/Spinner';
import { Navigate, Route, Routes } from '../../lib/router';

// `/app` and every `/admin` page inside the header layout: one chunk for the table and the layout, each page a
// chunk of its own, so none of the admin area (nor TanStack Query) is in the participant bundle.
const AppHomePage = lazy(() => import('./AppHomePage').then((m) => ({ default: m.AppHomePage })));
const AdminDashboardPage = lazy(() => import('./AdminDashboardPage').then((m) => ({ default: m.AdminDashboardPage })));
const UsersPage = lazy(() => import('./users/UsersPage').then((m) => ({ default: m.UsersPage })));
const StaffPage = lazy(() => import('./users/StaffPage').then((m) => ({ default: m.StaffPage })));
const UserDetailPage = lazy(() => import('./user-detail/UserDetailPage').then((m) => ({ default: m.UserDetailPage })));
const ExperimentsPage = lazy(() =>
  import('./experiments/ExperimentsPage').then((m) => ({ default: m.ExperimentsPage })),
);
const ExperimentDetailPage = lazy(() =>
  import('./experiment-detail/ExperimentDetailPage').then((m) => ({ default: m.ExperimentDetailPage })),
);
const StudiesPage = lazy(() => import('./studies/StudiesPage').then((m) => ({ default: m.StudiesPage })));
const StudyEditorPage = lazy(() => import('./studies/StudyEditorPage').then((m) => ({ default: m.StudyEditorPage })));
const SecurityPage = lazy(() => import('./security/SecurityPage').then((m) => ({ default: m.SecurityPage })));
const AuditPage = lazy(() => import('./audit/AuditPage').then((m) => ({ default: m.AuditPage })));

/** Keeps the header in place while a page's code loads (the app-wide fallback would replace the layout). */
function page(element: ReactNode) {
  return <Suspense fallback={<Spinner />}>{element}</Suspense>;
}

/** The admin area (render inside the admin guard); an unknown admin path goes to the dashboard. */
export function AdminArea() {
  return (
    <AdminLayout>
      <Routes>
        <Route path="/app" element={page(<AppHomePage />)} />
        <Route path="/admin" element={page(<AdminDashboardPage />)} />
        <Route path="/admin/users" element={page(<UsersPage />)} />
        <Route path="/admin/people" element={page(<StaffPage />)} />
        <Route path="/admin/user/:id" element={page(<UserDetailPage />)} />
        <Route path="/admin/experiments" element={page(<ExperimentsPage />)} />
        <Route path="/admin/experiments/:id" element={page(<ExperimentDetailPage />)} />
        <Route path="/admin/studies" element={page(<StudiesPage />)} />
        <Route path="/admin/studies/:id" element={page(<StudyEditorPage />)} />
        <Route path="/admin/security" element={page(<SecurityPage />)} />
        <Route path="/admin/audit" element={page(<AuditPage />)} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </AdminLayout>
  );
}
