import { studyPathways, type Experiment, type StudyPathway } from '@studychat/contracts/web';
import { useStudyVersion } from '../studies/use-studies';

/**
 * The experiment's three pathways with their code keys, in the words of the study version it pins
 * (docs/decisions/0056); the spec's words for the built-in study and until the version has loaded.
 */
export function usePathways(experiment: Pick<Experiment, 'study_version_id'>): StudyPathway[] {
  const version = useStudyVersion(experiment.study_version_id ?? undefined);
  return studyPathways(version.data?.definition);
}
