import type { FlowDefinition, FlowStep } from '@studychat/contracts/web';
import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { json, mockFetch, renderPage, type Call } from '../../test-utils';
import { VERSION_ID } from '../study-fixture';
import { StudyEditorPage } from '../StudyEditorPage';
import { flowVersion } from './flow-fixture';

// The builder's tests' shared steps: show a draft holding a flow, read the JSON view, open a step.

export const versionUrl = `/api/admin/study-versions/${VERSION_ID}`;

/** Shows the editor page of a draft holding `flow`; the server's check finds nothing unless told. */
export function showFlow(flow: FlowDefinition, handlers: Record<string, (call: Call) => Response> = {}): Call[] {
  const calls = mockFetch({
    [`GET ${versionUrl}`]: () => json(200, flowVersion(flow)),
    'POST /api/admin/study-versions/check': () => json(200, { issues: [] }),
    ...handlers,
  });
  renderPage(<StudyEditorPage />, { path: `/admin/studies/${VERSION_ID}`, route: '/admin/studies/:id' });
  return calls;
}

/** The definition the JSON view holds now. */
export const jsonView = () =>
  JSON.parse((screen.getByLabelText('Definition (JSON)') as HTMLTextAreaElement).value) as FlowDefinition;

/** Opens (or closes) step `n` (1-based) by its disclosure. */
export const openStep = async (user: ReturnType<typeof userEvent.setup>, n: number) => {
  await user.click(await screen.findByRole('button', { name: new RegExp(`^${n}\\. `) }));
};

export const questionStep = (
  id: string,
  questions: Extract<FlowStep, { type: 'questions' }>['questions'],
): FlowStep => ({ id, type: 'questions', title: 'About you', questions, button: 'Next' });
