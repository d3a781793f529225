import { endpoints } from '@studychat/contracts/web';
import { useMutation } from '@tanstack/react-query';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { api } from '../../../lib/api';
import { errorText } from '../format';

/** 'Test model': one tiny request with the configured provider; what is wrong, in plain words. */
export function ModelCheckPanel() {
  const check = useMutation({ mutationFn: () => api(endpoints.admin.modelCheck, {}) });
  const result = check.data;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">AI model</h2>
      <p className="mt-1 text-slate-600">
        Before a study goes live, check that the configured model answers: a wrong key, model name or an empty account
        shows here, not when a participant chats.
      </p>
      <Button className="mt-3" variant="secondary" onClick={() => check.mutate()} disabled={check.isPending}>
        {check.isPending ? 'Testing...' : 'Test model'}
      </Button>
      {check.isError && <Alert className="mt-3">The check could not run: {errorText(check.error)}</Alert>}
      {result && (
        <Alert tone={result.provider === 'scripted' ? 'warning' : result.ok ? 'success' : 'error'} className="mt-3">
          <p className="font-semibold">
            {result.provider === 'scripted'
              ? 'No real AI model'
              : result.ok
                ? 'The model works'
                : 'The model does not work'}{' '}
            ({result.provider}, {result.model})
          </p>
          <p className="mt-1">{result.message}</p>
        </Alert>
      )}
    </Card>
  );
}
