import { Link } from '../../lib/router';
import { Card } from '../../components/Card';

/** `/`: says what the tool is and points Prolific participants to their platform's instructions. */
export function WelcomePage() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-2xl flex-col justify-center px-4 py-10">
      <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">StudyChat</p>
      <h1 className="mt-2 text-3xl font-bold text-slate-900 sm:text-4xl">A research tool for medical communication</h1>
      <p className="mt-4 text-lg text-slate-700">
        StudyChat runs online research studies about how people find and discuss health information, including
        conversations with an AI assistant.
      </p>
      <Card className="mt-8">
        <h2 className="text-lg font-semibold text-slate-900">Taking part from Prolific?</h2>
        <p className="mt-2 text-slate-700">
          Please follow the instructions on Prolific and open the study through the link provided there. That link
          brings you to the right place with your study details already filled in.
        </p>
      </Card>
      <p className="mt-8 text-sm text-slate-600">
        Research team member?{' '}
        <Link to="/login" className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-900">
          Log in
        </Link>
      </p>
    </main>
  );
}
