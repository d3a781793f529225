import { FLOW_TEMPLATES, type FlowDefinition, type FlowStep } from '@studychat/contracts/web';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test-utils';
import { jsonView, openStep, questionStep, showFlow, versionUrl } from './builder-test-utils';
import { flowVersion, testFlow } from './flow-fixture';

const url = versionUrl;
const show = showFlow;
const stepIds = () => jsonView().steps.map((s) => s.id);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('FlowBuilder', { timeout: 30_000 }, () => {
  it('adds a step of each type before the end, duplicates, removes after confirming, and reorders by keyboard keeping focus', async () => {
    show(testFlow());
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Study builder' });
    for (const type of ['Questions', 'Page', 'AI text', 'Randomise', 'Chat', 'Screen']) {
      await user.selectOptions(screen.getByLabelText('Type of the new step'), type);
      await user.click(screen.getByRole('button', { name: 'Add step' }));
    }
    expect(stepIds()).toEqual([
      'consent',
      'questions',
      'page',
      'ai_text',
      'randomise',
      'chat',
      'screen',
      'done',
      'out',
    ]);
    const steps = jsonView().steps;
    expect(steps[1]).toMatchObject({ type: 'questions', questions: [{ key: 'q1', type: 'text', required: true }] });
    expect(steps[4]).toMatchObject({ type: 'randomise', weights: { main: 1 } });
    expect(steps[5]).toMatchObject({ type: 'chat', arms: { main: { completion: { rounds: 3, points: 0 } } } });
    expect(steps[6]).toMatchObject({ type: 'screen', when: { key: 'ai_text', op: 'eq' }, pathway: 'screened' });
    // The new step is open and focused.
    expect(screen.getByRole('button', { name: /^7\. Screen/ })).toHaveFocus();
    expect(screen.getByRole('button', { name: /^7\. Screen/ })).toHaveAttribute('aria-expanded', 'true');

    // Keyboard: Move up keeps focus on the moved step's Move up.
    const up = screen.getByRole('button', { name: 'Move up step 3 (page)' });
    up.focus();
    await user.keyboard('{Enter}');
    expect(stepIds().slice(0, 3)).toEqual(['consent', 'page', 'questions']);
    expect(screen.getByRole('button', { name: 'Move up step 2 (page)' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(stepIds().slice(0, 2)).toEqual(['page', 'consent']);
    // At the top Move up is disabled: focus goes to Move down.
    expect(screen.getByRole('button', { name: 'Move up step 1 (page)' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move down step 1 (page)' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(stepIds().slice(0, 3)).toEqual(['consent', 'page', 'questions']);

    await user.click(screen.getByRole('button', { name: 'Duplicate step 3 (questions)' }));
    expect(stepIds().slice(2, 4)).toEqual(['questions', 'questions_copy']);
    expect(jsonView().steps[3]).toMatchObject({ questions: [{ key: 'q1_copy' }] });

    await user.click(screen.getByRole('button', { name: 'Remove step 4 (questions_copy)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove step 4 (questions_copy)?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(stepIds()).toContain('questions_copy');
    await user.click(screen.getByRole('button', { name: 'Remove step 4 (questions_copy)' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove step' }));
    expect(stepIds()).not.toContain('questions_copy');
    await waitFor(() => expect(screen.getByRole('button', { name: /^4\. AI text/ })).toHaveFocus());
  });

  it('reorders by drag and drop', async () => {
    show(
      testFlow([questionStep('about', [{ key: 'age', text: 'Age?', required: true, type: 'number', integer: true }])]),
    );
    await screen.findByRole('heading', { name: 'Study builder' });
    const { fireEvent } = await import('@testing-library/react');
    const handle = screen.getByTestId('drag-1');
    const target = screen.getByRole('button', { name: /^1\. Page/ }).closest('li') as HTMLElement;
    const dataTransfer = { setData: vi.fn(), effectAllowed: '' };
    fireEvent.dragStart(handle, { dataTransfer });
    fireEvent.dragOver(target, { dataTransfer });
    fireEvent.drop(target, { dataTransfer });
    expect(stepIds().slice(0, 2)).toEqual(['about', 'consent']);
  });

  it('chooses the conditions that see a step (none checked: everyone)', async () => {
    show(
      testFlow(
        [
          { id: 'assign', type: 'randomise', weights: { a: 1, b: 1 } },
          { id: 'note', type: 'page', title: 'Note', blocks: [], button: 'Next' },
        ],
        ['a', 'b'],
      ),
    );
    const user = userEvent.setup();
    await openStep(user, 3);
    const shown = screen.getByRole('group', { name: 'Shown to (step 3)' });
    await user.click(within(shown).getByLabelText('B (b)'));
    expect(jsonView().steps[2]?.conditions).toEqual(['b']);
    await user.click(within(shown).getByLabelText('A (a)'));
    expect(jsonView().steps[2]?.conditions).toEqual(['a', 'b']);
    await user.click(within(shown).getByLabelText('A (a)'));
    await user.click(within(shown).getByLabelText('B (b)'));
    expect(jsonView().steps[2]).not.toHaveProperty('conditions');
  });

  it('writes each question type’s fields and an attention check', async () => {
    show(
      testFlow([
        questionStep('about', [
          {
            key: 'belief',
            text: 'Your view?',
            required: true,
            type: 'text',
            minChars: 1,
            maxChars: 500,
            multiline: true,
          },
        ]),
      ]),
    );
    const user = userEvent.setup();
    await openStep(user, 2);
    const of = ' of question 1 in step 2';
    const q = () => (jsonView().steps[1] as Extract<FlowStep, { type: 'questions' }>).questions[0];

    await user.selectOptions(screen.getByLabelText(`Type${of}`), 'slider');
    expect(q()).toMatchObject({ key: 'belief', text: 'Your view?', type: 'slider', min: 0, max: 100, step: 1 });
    await user.clear(screen.getByLabelText(`Highest${of}`));
    await user.type(screen.getByLabelText(`Highest${of}`), '10');
    await user.clear(screen.getByLabelText(`Label at the highest${of}`));
    await user.type(screen.getByLabelText(`Label at the highest${of}`), 'Fully');
    expect(q()).toMatchObject({ max: 10, anchors: { max: 'Fully' } });

    await user.selectOptions(screen.getByLabelText(`Type${of}`), 'likert');
    await user.clear(screen.getByLabelText(`Points (2 to 11)${of}`));
    await user.type(screen.getByLabelText(`Points (2 to 11)${of}`), '5');
    expect(q()).toMatchObject({ type: 'likert', points: 5, labels: { min: 'Strongly disagree' } });

    await user.selectOptions(screen.getByLabelText(`Type${of}`), 'number');
    await user.type(screen.getByLabelText(`Lowest (optional)${of}`), '18');
    expect(q()).toMatchObject({ type: 'number', min: 18, integer: true });

    await user.selectOptions(screen.getByLabelText(`Type${of}`), 'single');
    const options = screen.getByRole('group', { name: `Options${of}` });
    await user.click(within(options).getByRole('button', { name: 'Add option' }));
    expect(q()).toMatchObject({ type: 'single', options: [{ value: 'a' }, { value: 'b' }, { value: 'option_3' }] });
    await user.click(screen.getByLabelText(`This question is an attention check${of}`));
    expect(q()?.check).toEqual({ expected: 'a', onFail: { flag: true } });
    await user.selectOptions(screen.getByLabelText(`Expected answer${of}`), 'b');
    await user.selectOptions(screen.getByLabelText(`Another answer${of}`), 'end');
    expect(q()?.check).toEqual({ expected: 'b', onFail: { end: 'screened' } });

    await user.selectOptions(screen.getByLabelText(`Type${of}`), 'multiple');
    await user.type(screen.getByLabelText(`Most choices${of}`), '2');
    expect(q()).toMatchObject({ type: 'multiple', maxChoices: 2 });
    expect(q()).not.toHaveProperty('check');

    await user.selectOptions(screen.getByLabelText(`Type${of}`), 'text');
    await user.clear(screen.getByLabelText(`Most characters${of}`));
    await user.type(screen.getByLabelText(`Most characters${of}`), '300');
    await user.click(screen.getByLabelText(`Must be answered${of}`));
    expect(q()).toMatchObject({ type: 'text', minChars: 1, maxChars: 300, required: false });

    const questions = screen.getByRole('group', { name: 'Questions of step 2' });
    await user.click(within(questions).getByRole('button', { name: 'Add question' }));
    expect((jsonView().steps[1] as Extract<FlowStep, { type: 'questions' }>).questions[1]).toMatchObject({
      key: 'q1',
      type: 'text',
    });
  });

  it('writes a page, an end, an AI text and a randomise step with strata', async () => {
    show(
      testFlow([
        questionStep('about', [
          {
            key: 'leaning',
            text: 'Leaning?',
            required: true,
            type: 'likert',
            points: 7,
            labels: { min: 'Left', max: 'Right' },
          },
        ]),
        {
          id: 'summary',
          type: 'ai_text',
          title: 'Summary',
          instructions: 'Check it.',
          prompt: 'Summarise.',
          allowCorrection: true,
          maxChars: 500,
          confirmLabel: 'OK',
          scripted: 'S.',
        },
        { id: 'assign', type: 'randomise', weights: { main: 1 } },
      ]),
    );
    const user = userEvent.setup();
    await openStep(user, 1);
    await user.type(screen.getByLabelText('Least seconds on the page of step 1'), '20');
    await user.clear(screen.getByLabelText('Button label of step 1'));
    await user.type(screen.getByLabelText('Button label of step 1'), 'I agree');
    expect(jsonView().steps[0]).toMatchObject({ minSeconds: 20, button: 'I agree', consent: true });

    await openStep(user, 3);
    await user.selectOptions(screen.getByLabelText('Provider of step 3'), 'openai');
    await user.type(screen.getByLabelText('Model of step 3'), 'gpt-4o');
    await user.click(screen.getByLabelText('The participant may correct the text of step 3'));
    expect(jsonView().steps[2]).toMatchObject({
      model: { provider: 'openai', model: 'gpt-4o' },
      allowCorrection: false,
    });

    await openStep(user, 4);
    await user.clear(screen.getByLabelText('Weight of MAIN (main) of step 4'));
    await user.type(screen.getByLabelText('Weight of MAIN (main) of step 4'), '2');
    await user.click(screen.getByLabelText('Stratify by an earlier answer of step 4'));
    expect(jsonView().steps[3]).toMatchObject({
      weights: { main: 2 },
      strata: { key: 'leaning', bins: [{ label: 'Group 1' }] },
    });
    await user.clear(screen.getByLabelText('Name of stratum 1 of step 4'));
    await user.type(screen.getByLabelText('Name of stratum 1 of step 4'), 'left');
    await user.clear(screen.getByLabelText('Highest in stratum 1 of step 4'));
    await user.type(screen.getByLabelText('Highest in stratum 1 of step 4'), '3');
    expect(jsonView().steps[3]).toMatchObject({
      strata: { key: 'leaning', bins: [{ label: 'left', min: 0, max: 3 }] },
    });

    await openStep(user, 6);
    await user.selectOptions(screen.getByLabelText('Pathway of step 6'), 'screened');
    await user.clear(screen.getByLabelText('Title of step 6'));
    await user.type(screen.getByLabelText('Title of step 6'), 'Bye');
    expect(jsonView().steps[5]).toMatchObject({ type: 'end', pathway: 'screened', title: 'Bye' });
  });

  it('writes a screen rule as a sentence', async () => {
    show(
      testFlow([
        questionStep('about', [
          { key: 'age', text: 'Age?', required: true, type: 'number', integer: true },
          {
            key: 'smoker',
            text: 'Smoker?',
            required: true,
            type: 'single',
            options: [
              { value: 'yes', label: 'Yes' },
              { value: 'no', label: 'No' },
            ],
          },
        ]),
        { id: 'adults', type: 'screen', when: { key: 'age', op: 'lt', value: 18 }, pathway: 'screened' },
      ]),
    );
    const user = userEvent.setup();
    await openStep(user, 3);
    const rule = screen.getByRole('group', { name: 'Rule of step 3' });
    expect(within(rule).getByText('If')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('comparison of step 3'), 'gt');
    await user.clear(screen.getByLabelText('value of step 3'));
    await user.type(screen.getByLabelText('value of step 3'), '65');
    expect(jsonView().steps[2]).toMatchObject({ when: { key: 'age', op: 'gt', value: 65 }, pathway: 'screened' });

    await user.selectOptions(screen.getByLabelText('answer of step 3'), 'smoker');
    await user.selectOptions(screen.getByLabelText('comparison of step 3'), 'in');
    await user.clear(screen.getByLabelText('values, separated by commas of step 3'));
    await user.type(screen.getByLabelText('values, separated by commas of step 3'), 'yes, no');
    expect(jsonView().steps[2]).toMatchObject({ when: { key: 'smoker', op: 'in', value: ['yes', 'no'] } });
    await user.selectOptions(screen.getByLabelText('comparison of step 3'), 'ne');
    expect(jsonView().steps[2]).toMatchObject({ when: { key: 'smoker', op: 'ne', value: 'yes' } });
    await user.selectOptions(screen.getByLabelText('end with pathway of step 3'), 'complete');
    expect(jsonView().steps[2]).toMatchObject({ pathway: 'complete' });
  });

  it('sets chat arms per condition (one arm without chat) and offers only earlier answers as pipes', async () => {
    show(
      testFlow(
        [
          questionStep('before', [
            {
              key: 'belief',
              text: 'Belief?',
              required: true,
              type: 'text',
              minChars: 1,
              maxChars: 500,
              multiline: true,
            },
          ]),
          { id: 'assign', type: 'randomise', weights: { ai: 1, control: 1 } },
          {
            id: 'talk',
            type: 'chat',
            title: 'Chat',
            intro: 'Talk.',
            arms: Object.fromEntries(
              ['ai', 'control'].map((c) => [
                c,
                {
                  systemPrompt: 'Be kind.',
                  fallbackGreeting: 'Hi',
                  completion: { rounds: 3, points: 0 },
                  scripted: { opening: 'Hi', replies: ['Ok'], closing: 'Bye' },
                },
              ]),
            ),
          },
          questionStep('after', [
            {
              key: 'rating',
              text: 'Rating?',
              required: true,
              type: 'slider',
              min: 0,
              max: 100,
              step: 1,
              anchors: { min: 'Low', max: 'High' },
            },
          ]),
        ],
        ['ai', 'control'],
      ),
    );
    const user = userEvent.setup();
    await openStep(user, 4);
    await user.click(screen.getByLabelText('This condition chats in step 4 (control)'));
    expect(Object.keys((jsonView().steps[3] as Extract<FlowStep, { type: 'chat' }>).arms)).toEqual(['ai']);
    await user.clear(screen.getByLabelText('Rounds of condition ai in step 4'));
    await user.type(screen.getByLabelText('Rounds of condition ai in step 4'), '2');
    await user.type(screen.getByLabelText('Most minutes of condition ai in step 4'), '10');
    await user.selectOptions(screen.getByLabelText('Provider of condition ai in step 4'), 'anthropic');
    expect((jsonView().steps[3] as Extract<FlowStep, { type: 'chat' }>).arms.ai).toMatchObject({
      completion: { rounds: 2, points: 0, maxMinutes: 10 },
      model: { provider: 'anthropic' },
    });

    // Pipes: the chat (step 4) may read the belief (step 2), never the rating (step 5).
    const prompt = screen.getByLabelText('System prompt of condition ai in step 4');
    await user.clear(prompt);
    await user.type(prompt, 'You discuss: ');
    await user.click(
      screen.getByRole('button', { name: 'Insert answer into System prompt of condition ai in step 4' }),
    );
    const menu = screen.getByRole('list', { name: /Answers given before this step, for System prompt/ });
    expect(
      within(menu)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['{{belief}}']);
    await user.click(within(menu).getByRole('button', { name: '{{belief}}' }));
    expect((jsonView().steps[3] as Extract<FlowStep, { type: 'chat' }>).arms.ai?.systemPrompt).toBe(
      'You discuss: {{belief}}',
    );

    await openStep(user, 5);
    await user.click(screen.getByRole('button', { name: 'Insert answer into Question text of question 1 in step 5' }));
    expect(screen.getByRole('button', { name: '{{belief}}' })).toBeInTheDocument();
    await openStep(user, 2);
    await user.click(screen.getByRole('button', { name: 'Insert answer into Question text of question 1 in step 2' }));
    expect(screen.getByText('No answers are given before this step.')).toBeInTheDocument();
  });

  it('checks on every change: each issue at its field and in the list, Save disabled until fixed', async () => {
    show(
      testFlow([
        questionStep('about', [
          { key: 'age', text: 'Age?', required: true, type: 'number', integer: true },
          { key: 'city', text: 'City?', required: true, type: 'text', minChars: 1, maxChars: 100, multiline: false },
        ]),
      ]),
    );
    const user = userEvent.setup();
    await openStep(user, 2);
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    const key = screen.getByLabelText('Answer key of question 2 in step 2');
    await user.clear(key);
    await user.type(key, 'age');
    expect(key).toHaveAttribute('aria-invalid', 'true');
    expect(key).toHaveAccessibleDescription(expect.stringContaining('answer keys must be unique'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByText(/The definition has 1 problem/)).toBeInTheDocument();
    expect(screen.getByText('1 problem')).toBeInTheDocument();

    // The summary leads to the field (its step opened if closed).
    await user.click(screen.getByRole('button', { name: /^2\. Questions/ }));
    await user.click(screen.getByRole('button', { name: /steps\.1\.questions\.1\.key/ }));
    await waitFor(() => expect(screen.getByLabelText('Answer key of question 2 in step 2')).toHaveFocus());

    await user.type(screen.getByLabelText('Answer key of question 2 in step 2'), '_2');
    expect(screen.queryByText(/The definition has/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('shows the server’s live check (shape) at the field too', async () => {
    show(testFlow(), {
      'POST /api/admin/study-versions/check': () =>
        json(200, { issues: [{ path: 'title', message: 'must not be empty' }] }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByText('Study title and texts'));
    await user.clear(screen.getByLabelText('Study title'));
    expect(await screen.findByText('must not be empty', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('saves the built definition, and shows a refused save’s issues at their fields', async () => {
    let refuse = false;
    const calls = show(testFlow(), {
      [`PUT ${url}`]: () =>
        refuse
          ? json(400, {
              error: 'The study definition has problems',
              code: 'VALIDATION',
              issues: [{ path: 'steps.1.title', message: 'the server says no' }],
            })
          : json(200, flowVersion(testFlow())),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByText('Study title and texts'));
    await user.clear(screen.getByLabelText('Study title'));
    await user.type(screen.getByLabelText('Study title'), 'Four-day week');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    const sent = calls.find((c) => c.method === 'PUT')?.body as { definition: FlowDefinition };
    expect(sent.definition.title).toBe('Four-day week');

    refuse = true;
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await openStep(user, 2);
    expect(await screen.findByText('the server says no')).toBeInTheDocument();
    expect(screen.getByLabelText('Title of step 2')).toHaveAttribute('aria-invalid', 'true');
  });

  it.each(FLOW_TEMPLATES.map((t) => [t.id, t] as const))(
    'shows the %s template: every step opens, no problem',
    async (_, template) => {
      show(structuredClone(template) as FlowDefinition);
      const user = userEvent.setup();
      await screen.findByRole('heading', { name: 'Study builder' });
      // One step open at a time (each closed again after), so the page stays small.
      for (let n = 1; n <= template.steps.length; n += 1) {
        await openStep(user, n);
        expect(screen.getByLabelText(`Step id of step ${n}`)).toHaveValue(template.steps[n - 1]?.id);
        await openStep(user, n);
      }
      expect(screen.queryByText(/The definition has/)).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
      expect(jsonView()).toEqual(template);
    },
  );

  it('follows the JSON view: a step added there shows in the builder', async () => {
    show(testFlow());
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Study builder' });
    const flow = jsonView();
    flow.steps.splice(1, 0, { id: 'intro', type: 'page', title: 'Hello', blocks: [], button: 'Go' });
    const textarea = screen.getByLabelText('Definition (JSON)');
    await user.clear(textarea);
    await user.click(textarea);
    await user.paste(JSON.stringify(flow));
    expect(screen.getByRole('button', { name: /^2\. Page intro/ })).toBeInTheDocument();
  });
});
