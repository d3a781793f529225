import { useNavigate, useParams } from '../../../lib/router';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { StudyLayout } from '../../../components/StudyLayout';
import { useParticipant } from '../participant-store';
import { readStudySession } from '../study-storage';
import { useStudy } from '../study-context';
import { conditionContent } from '../condition-content';

/** `/experiment/:experimentId/static-intro`: what the participant will read next. */
export function StaticIntroPage() {
  const study = useStudy();
  const navigate = useNavigate();
  const { experimentId = '' } = useParams();
  const condition = useParticipant().journey?.condition ?? readStudySession().assignedCondition;
  const content = conditionContent(study, condition);
  const count = content.sections.length;
  // The study's own texts, if it has them (its topic and number of sections filled in); else the spec's.
  const own = study.pages?.staticIntro;
  const fill = (text: string) => text.replaceAll('{topic}', content.topic).replaceAll('{sections}', String(count));
  return (
    <StudyLayout title={own?.title ?? 'Before you begin'}>
      <Card>
        <div className="space-y-3 text-base leading-relaxed text-slate-800 sm:text-lg">
          {own ? (
            own.paragraphs.map((text, index) => <p key={index}>{fill(text)}</p>)
          ) : (
            <>
              <p>
                Next, you will read {count === 4 ? 'four' : count} short sections of information about{' '}
                <strong className="font-semibold text-slate-900">{content.topic}</strong>.
              </p>
              <p>
                Each section stays on screen for a short minimum time. When the time is up and you have read to the end
                of the section, you can move on to the next one.
              </p>
              <p>After the last section, you will have a short conversation with an AI assistant.</p>
            </>
          )}
        </div>
        <div className="mt-6">
          <Button block onClick={() => navigate(`/experiment/${experimentId}/static`, { replace: true })}>
            Begin
          </Button>
        </div>
      </Card>
    </StudyLayout>
  );
}
