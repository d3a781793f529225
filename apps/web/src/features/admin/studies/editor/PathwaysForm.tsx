import { PATHWAYS, SPEC_PATHWAYS } from '@studychat/contracts/web';
import { TextInput } from './fields';

/**
 * What the study calls its three pathways, for the researchers (codes form, codebook; never participants).
 * Empty is the spec's words (shown as placeholders); a pathway needs both its label and its description.
 */
export function PathwaysForm() {
  return (
    <>
      {PATHWAYS.map((pathway) => (
        <fieldset key={pathway} className="space-y-3 rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-semibold text-slate-800">Pathway “{pathway}”</legend>
          <TextInput
            path={['pathways', pathway, 'label']}
            label={`Label of the ${pathway} pathway`}
            placeholder={SPEC_PATHWAYS[pathway].label}
            optional
          />
          <TextInput
            path={['pathways', pathway, 'description']}
            label={`Description of the ${pathway} pathway`}
            placeholder={SPEC_PATHWAYS[pathway].description}
            rows={2}
            optional
          />
        </fieldset>
      ))}
    </>
  );
}
