import { isFlowDefinition, studyPathways, type Experiment, type StudyPathway } from '@studychat/contracts/web';
import { useStudyVersion } from '../studies/use-studies';

/**
 * The experiment's three pathways with their code keys, in the words of the study version it pins
 * (docs/decisions/0056); the spec's words for the built-in study and until the version has loaded.
 */
export function usePathways(experiment: Pick<Experiment, 'study_version_id'>): StudyPathway[] {
  const version = useStudyVersion(experiment.study_version_id ?? undefined);
  const definition = version.data?.definition;
  // A flow's pathways are its own (issue 30): the spec's three are the built-in shape's.
  return studyPathways(isFlowDefinition(definition) ? undefined : definition);
}
