import { lazy } from 'react';
import { Route } from 'react-router';

// Each admin page is its own chunk, so none of the admin area (nor TanStack Query) is in the
// participant bundle.
const AdminLayout = lazy(() => import('../../app/layouts/AdminLayout').then((m) => ({ default: m.AdminLayout })));
const AppHomePage = lazy(() => import('./AppHomePage').then((m) => ({ default: m.AppHomePage })));
const AdminDashboardPage = lazy(() => import('./AdminDashboardPage').then((m) => ({ default: m.AdminDashboardPage })));

/** `/app` and every `/admin` page inside the header layout (render inside the admin guard). */
export function adminRoutes() {
  return (
    <Route element={<AdminLayout />}>
      <Route path="/app" element={<AppHomePage />} />
      <Route path="/admin" element={<AdminDashboardPage />} />
      {/* The admin pages (users, user detail, experiments, experiment detail) register here. */}
    </Route>
  );
}
