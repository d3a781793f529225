import { FLOW_TEMPLATES } from '@studychat/contracts/web';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { BlankStudyItem } from './builder/BlankStudyItem';
import { useCreateStudyVersion } from './use-studies';

/** What each template is for, in a line (the Studies page's list). */
const SUMMARIES: Record<string, string> = {
  'belief-change':
    'Costello et al. (2024): a belief in the participant’s own words, summarised by the AI and confirmed, rated 0-100 before and after a 3-round chat whose prompt carries the belief; a control chat on another topic.',
  'three-arm':
    'A chatbot arm, a text-only arm that reads an official text with no chat, and a no-message arm; screening on eligibility and an attention check that flags.',
  'model-comparison': 'The same prompt on two models (providers): the arms differ only by the model that answers.',
};

/** The study templates shipped beside the built-in study: each becomes a new draft version in one click. */
export function TemplatesCard({ onCreated }: { onCreated: (id: string) => void }) {
  const create = useCreateStudyVersion();
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Start a new study</h2>
      <p className="mt-1 text-sm text-slate-600">
        From blank or from a template, each a study written as a flow of steps: a new draft you build or adapt, then pin
        to an experiment.
      </p>
      {create.error && (
        <Alert tone="error" className="mt-3">
          {create.error.message}
        </Alert>
      )}
      <ul className="mt-4 space-y-4">
        <BlankStudyItem onCreated={onCreated} />
        {FLOW_TEMPLATES.map((template) => (
          <li key={template.id} className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
            <div>
              <p className="font-medium text-slate-900">{template.title}</p>
              <p className="text-sm text-slate-600">{SUMMARIES[template.id] ?? ''}</p>
            </div>
            <Button
              variant="secondary"
              className="shrink-0"
              disabled={create.isPending}
              onClick={() =>
                create.mutate(
                  { label: template.title.replace(/ \(template\)$/, ''), definition: { ...template } },
                  { onSuccess: (created) => onCreated(created.id) },
                )
              }
            >
              Use this template<span className="sr-only">: {template.title}</span>
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
