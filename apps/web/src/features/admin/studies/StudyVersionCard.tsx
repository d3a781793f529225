import type { Experiment } from '@studychat/contracts/web';
import { useState } from 'react';
import { Link } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { useCanEditExperiment } from '../experiment-role';
import { usePinStudyVersion, useStudyVersions } from './use-studies';
import { VersionSelect } from './VersionSelect';

/** The experiment's study version, and (for admins, before any participant) pinning another one. */
export function StudyVersionCard({ experiment }: { experiment: Experiment }) {
  const versions = useStudyVersions();
  const pin = usePinStudyVersion(experiment.id);
  const editable = useCanEditExperiment(experiment.id);
  const [choice, setChoice] = useState('');
  const current = versions.data?.find((v) => v.id === experiment.study_version_id);
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Study version</h2>
      <p className="mt-2 text-slate-700">
        {current ? (
          <>
            Runs{' '}
            <Link to={`/admin/studies/${current.id}`} className="font-medium text-brand-700 underline">
              {current.label}
            </Link>{' '}
            ({current.title}).
          </>
        ) : (
          'Runs the built-in study.'
        )}
      </p>
      {editable && versions.data && (
        <div className="mt-3 flex flex-wrap items-end gap-2">
          <VersionSelect label="Pin another version" value={choice} versions={versions.data} onChange={setChoice} />
          <Button variant="secondary" disabled={!choice || pin.isPending} onClick={() => pin.mutate(choice)}>
            Pin version
          </Button>
        </div>
      )}
      {pin.error && (
        <Alert tone="error" className="mt-3">
          {pin.error.message}
        </Alert>
      )}
      {pin.isSuccess && (
        <Alert tone="success" className="mt-3">
          Study version pinned.
        </Alert>
      )}
    </Card>
  );
}
