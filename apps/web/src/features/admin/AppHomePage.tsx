import { Link } from '../../lib/router';
import { Card } from '../../components/Card';
import { currentUser } from '../../lib/session';

/** `/app`: welcome page with the Admin Dashboard card. */
export function AppHomePage() {
  const user = currentUser();
  return (
    <div>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Welcome{user ? `, ${user.email}` : ''}</h1>
      <p className="mt-2 text-slate-600">Run your studies and follow their progress from here.</p>
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <Link to="/admin" className="group block rounded-xl focus-visible:outline-offset-4">
          <Card className="h-full transition-shadow group-hover:shadow-md">
            <h2 className="text-lg font-semibold text-brand-700 group-hover:underline">Admin Dashboard</h2>
            <p className="mt-1 text-slate-600">Manage users, experiments, study logins and data exports.</p>
          </Card>
        </Link>
      </div>
    </div>
  );
}
