import { useState } from 'react';
import { useNavigate } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { StudyLayout } from '../../../components/StudyLayout';
import { ContentBlocks } from '../ContentBlocks';
import { readSession, setFlag } from '../study-storage';
import { giveConsent } from '../participant-store';
import { useStudy } from '../study-context';

/** `/consent`: the informed consent text; 'I Consent' records consent and goes to `/entry`. */
export function ConsentPage() {
  const study = useStudy();
  const navigate = useNavigate();
  const experimentId = readSession('EXPERIMENT_ID');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { consent } = study;

  async function handleConsent() {
    if (!experimentId || busy) return;
    setBusy(true);
    setError(null);
    try {
      await giveConsent(experimentId);
      setFlag('consentGiven');
      navigate('/entry', { replace: true });
    } catch (err) {
      console.warn('recording consent failed', err);
      setError('Failed to record your consent. Please try again or contact support.');
      setBusy(false);
    }
  }

  return (
    <StudyLayout title={consent.title} wide>
      {!experimentId ? (
        <Alert>Configuration error: Experiment ID missing. Please return to Prolific.</Alert>
      ) : (
        <Card>
          <ContentBlocks blocks={consent.blocks} />
          <h2 className="mt-6 text-lg font-semibold text-slate-900 sm:text-xl">Contact and agreement</h2>
          <p className="mt-3 text-base leading-relaxed text-slate-800 sm:text-lg">{consent.contact}</p>
          {error && <Alert className="mt-5">{error}</Alert>}
          <div className="mt-6">
            <Button block onClick={() => void handleConsent()} disabled={busy}>
              {busy ? 'Saving...' : 'I Consent'}
            </Button>
          </div>
        </Card>
      )}
    </StudyLayout>
  );
}
