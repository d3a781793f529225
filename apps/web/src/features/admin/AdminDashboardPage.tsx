import { Link } from '../../lib/router';
import { Card } from '../../components/Card';
import { canEdit } from './can-edit';
import { ModelCheckPanel } from './model/ModelCheckPanel';

const CARDS = [
  {
    to: '/admin/users',
    title: 'Users',
    text: 'Participants and admins, their chats, assignments and survey responses.',
  },
  {
    to: '/admin/experiments',
    title: 'Experiments',
    text: 'Create experiments, set completion codes, generate logins, export data.',
  },
  {
    to: '/admin/studies',
    title: 'Study versions',
    text: 'Edit what participants read, the timers, the questions and the chat prompts; compare versions.',
  },
];

/** `/admin`: dashboard with two cards, to `/admin/users` and `/admin/experiments`. */
export function AdminDashboardPage() {
  return (
    <div>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Admin Dashboard</h1>
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        {CARDS.map((card) => (
          <Link key={card.to} to={card.to} className="group block rounded-xl focus-visible:outline-offset-4">
            <Card className="h-full transition-shadow group-hover:shadow-md">
              <h2 className="text-lg font-semibold text-brand-700 group-hover:underline">{card.title}</h2>
              <p className="mt-1 text-slate-600">{card.text}</p>
            </Card>
          </Link>
        ))}
      </div>
      {canEdit() && (
        <div className="mt-6">
          <ModelCheckPanel />
        </div>
      )}
      <nav aria-label="Account and oversight" className="mt-6">
        <ul className="flex flex-wrap gap-x-6 gap-y-2">
          <li>
            <Link to="/admin/security" className="font-medium text-brand-700 underline">
              Security: two-factor authentication, log out everywhere
            </Link>
          </li>
          {canEdit() && (
            <li>
              <Link to="/admin/audit" className="font-medium text-brand-700 underline">
                Audit log: who did what in the admin area
              </Link>
            </li>
          )}
        </ul>
      </nav>
    </div>
  );
}
