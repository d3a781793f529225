import type { FlowStep } from '@studychat/contracts/web';
import { TextInput } from '../editor/fields';
import { AiTextForm } from './AiTextForm';
import { ChatArmsForm } from './ChatArmsForm';
import { EndForm } from './EndForm';
import { PageForm } from './PageForm';
import { QuestionsForm } from './QuestionsForm';
import { RandomiseForm } from './RandomiseForm';
import { ReadingForm } from './ReadingForm';
import { ScreenForm } from './ScreenForm';
import { StepConditions } from './StepConditions';

/** One step's form: its id, who sees it, and its type's fields. */
export function StepForm({ index, step }: { index: number; step: FlowStep }) {
  const forAll = step.type === 'randomise' || step.type === 'end';
  return (
    <div className="space-y-4">
      <TextInput
        path={['steps', index, 'id']}
        label="Step id"
        hiddenLabel={` of step ${index + 1}`}
        hint="1-50 lower-case letters, digits or _; the data name the step by it."
      />
      {!forAll && <StepConditions index={index} step={step} />}
      {step.type === 'page' && <PageForm index={index} />}
      {step.type === 'questions' && <QuestionsForm index={index} />}
      {step.type === 'reading' && <ReadingForm index={index} />}
      {step.type === 'chat' && <ChatArmsForm index={index} />}
      {step.type === 'ai_text' && <AiTextForm index={index} />}
      {step.type === 'randomise' && <RandomiseForm index={index} />}
      {step.type === 'screen' && <ScreenForm index={index} />}
      {step.type === 'end' && <EndForm index={index} />}
    </div>
  );
}
