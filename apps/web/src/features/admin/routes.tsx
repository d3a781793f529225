import { lazy } from 'react';
import { Route } from 'react-router';

// Each admin page is its own chunk, so none of the admin area (nor TanStack Query) is in the
// participant bundle.
const AdminLayout = lazy(() => import('../../app/layouts/AdminLayout').then((m) => ({ default: m.AdminLayout })));
const AppHomePage = lazy(() => import('./AppHomePage').then((m) => ({ default: m.AppHomePage })));
const AdminDashboardPage = lazy(() => import('./AdminDashboardPage').then((m) => ({ default: m.AdminDashboardPage })));
const UsersPage = lazy(() => import('./users/UsersPage').then((m) => ({ default: m.UsersPage })));
const UserDetailPage = lazy(() => import('./user-detail/UserDetailPage').then((m) => ({ default: m.UserDetailPage })));
const ExperimentsPage = lazy(() =>
  import('./experiments/ExperimentsPage').then((m) => ({ default: m.ExperimentsPage })),
);
const ExperimentDetailPage = lazy(() =>
  import('./experiment-detail/ExperimentDetailPage').then((m) => ({ default: m.ExperimentDetailPage })),
);

/** `/app` and every `/admin` page inside the header layout (render inside the admin guard). */
export function adminRoutes() {
  return (
    <Route element={<AdminLayout />}>
      <Route path="/app" element={<AppHomePage />} />
      <Route path="/admin" element={<AdminDashboardPage />} />
      <Route path="/admin/users" element={<UsersPage />} />
      <Route path="/admin/user/:id" element={<UserDetailPage />} />
      <Route path="/admin/experiments" element={<ExperimentsPage />} />
      <Route path="/admin/experiments/:id" element={<ExperimentDetailPage />} />
    </Route>
  );
}
