import type { FlowStep } from '@studychat/contracts/web';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonView, openStep, questionStep, showFlow } from './builder-test-utils';
import { testFlow } from './flow-fixture';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** consent, about (age, smoker), adults (screen: age < 18), done, out. */
const screenFlow = (when: Extract<FlowStep, { type: 'screen' }>['when'] = { key: 'age', op: 'lt', value: 18 }) =>
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
    { id: 'adults', type: 'screen', when, pathway: 'screened' },
  ]);

const rule = () => (jsonView().steps[2] as Extract<FlowStep, { type: 'screen' }>).when;

describe('the combined (all / any) screen rule editor', { timeout: 30_000 }, () => {
  it('combines comparisons with all / any, nests a group, reorders and removes by keyboard', async () => {
    showFlow(screenFlow());
    const user = userEvent.setup();
    await openStep(user, 3);
    await user.click(screen.getByRole('button', { name: 'Combine with another comparison of step 3' }));
    expect(rule()).toEqual({
      all: [
        { key: 'age', op: 'lt', value: 18 },
        { key: 'smoker', op: 'eq', value: '' },
      ],
    });
    // Focus goes to the new comparison's first field.
    await waitFor(() => expect(screen.getByLabelText('answer of comparison 2 in step 3')).toHaveFocus());
    await user.type(screen.getByLabelText('value of comparison 2 in step 3'), 'yes');
    expect(rule()).toEqual({
      all: [
        { key: 'age', op: 'lt', value: 18 },
        { key: 'smoker', op: 'eq', value: 'yes' },
      ],
    });
    expect(screen.getByText('Values of smoker: yes (Yes), no (No)')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('All or any of the rule of step 3'), 'any of these holds');
    expect(rule()).toMatchObject({ any: [{ key: 'age' }, { key: 'smoker' }] });

    // A nested group, by the keyboard: "age is more than 65 and smoker is no".
    screen.getByRole('button', { name: 'Add group to the rule of step 3' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByLabelText('answer of comparison 3.1 in step 3')).toHaveFocus());
    await user.selectOptions(screen.getByLabelText('answer of comparison 3.1 in step 3'), 'age');
    await user.selectOptions(screen.getByLabelText('comparison of comparison 3.1 in step 3'), 'gt');
    await user.type(screen.getByLabelText('value of comparison 3.1 in step 3'), '65');
    const group = screen.getByRole('group', { name: /^Group 3/ });
    await user.click(within(group).getByRole('button', { name: 'Add comparison to group 3 in step 3' }));
    await user.selectOptions(screen.getByLabelText('comparison of comparison 3.2 in step 3'), 'ne');
    await user.type(screen.getByLabelText('value of comparison 3.2 in step 3'), 'yes');
    expect(rule()).toEqual({
      any: [
        { key: 'age', op: 'lt', value: 18 },
        { key: 'smoker', op: 'eq', value: 'yes' },
        {
          all: [
            { key: 'age', op: 'gt', value: 65 },
            { key: 'smoker', op: 'ne', value: 'yes' },
          ],
        },
      ],
    });
    // A group in a group is not offered (the JSON may still hold one).
    expect(within(group).queryByRole('button', { name: /Add group/ })).not.toBeInTheDocument();

    // Move the group up: focus stays on the moved group's button.
    screen.getByRole('button', { name: 'Move group 3 up in step 3' }).focus();
    await user.keyboard('{Enter}');
    expect(rule()).toMatchObject({ any: [{ key: 'age' }, { all: [{}, {}] }, { key: 'smoker' }] });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move group 2 up in step 3' })).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move group 1 down in step 3' })).toHaveFocus());
    expect(rule()).toMatchObject({ any: [{ all: [{}, {}] }, { key: 'age' }, { key: 'smoker' }] });

    // Remove: focus goes to the next item's Remove; a lone item cannot be removed.
    screen.getByRole('button', { name: 'Remove comparison 2 in step 3' }).focus();
    await user.keyboard('{Enter}');
    expect(rule()).toMatchObject({ any: [{ all: [{}, {}] }, { key: 'smoker' }] });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove comparison 2 in step 3' })).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Remove comparison 1.2 in step 3' }));
    expect(screen.getByRole('button', { name: 'Remove comparison 1.1 in step 3' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();

    // Back to one comparison: the first one is kept.
    await user.click(screen.getByRole('button', { name: 'Use one comparison of step 3' }));
    expect(rule()).toEqual({ key: 'age', op: 'gt', value: 65 });
    expect(screen.getByRole('group', { name: 'Rule of step 3' })).toBeInTheDocument();
  });

  it('shows each comparison’s problem at its field, and Save waits', async () => {
    showFlow(
      screenFlow({
        all: [{ key: 'age', op: 'lt', value: 18 }, { any: [{ key: 'smoker', op: 'eq', value: 'yes' }] }],
      }),
    );
    const user = userEvent.setup();
    await openStep(user, 3);
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    await user.selectOptions(screen.getByLabelText('comparison of comparison 2.1 in step 3'), 'gt');
    const value = screen.getByLabelText('value of comparison 2.1 in step 3');
    expect(value).toHaveAttribute('aria-invalid', 'true');
    expect(value).toHaveAccessibleDescription('must be a number');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('answer of comparison 2.1 in step 3'), 'age');
    await user.clear(value);
    await user.type(value, '3');
    expect(rule()).toMatchObject({ all: [{}, { any: [{ key: 'age', op: 'gt', value: 3 }] }] });
    expect(value).not.toHaveAttribute('aria-invalid');

    // An answer given after the screen cannot be read.
    const flow = jsonView();
    flow.steps.splice(
      3,
      0,
      questionStep('later', [{ key: 'late', text: 'L?', required: true, type: 'number', integer: true }]),
    );
    const textarea = screen.getByLabelText('Definition (JSON)');
    await user.clear(textarea);
    await user.click(textarea);
    await user.paste(JSON.stringify(flow));
    await openStep(user, 3);
    const answer = screen.getByLabelText('answer of comparison 1 in step 3');
    expect(within(answer).queryByRole('option', { name: 'late' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('shows a hostile or deeper rule from the JSON without breaking: odd items as empty comparisons, groups in groups', async () => {
    showFlow(
      screenFlow({
        all: [null, 5, { any: [{ all: [{ key: 'age', op: 'eq', value: 1 }] }] }],
      } as never),
    );
    const user = userEvent.setup();
    await openStep(user, 3);
    expect(screen.getByRole('group', { name: 'Rule of step 3' })).toBeInTheDocument();
    expect(screen.getByLabelText('answer of comparison 1 in step 3')).toHaveValue('');
    expect(screen.getByRole('group', { name: /^Group 3\.1/ })).toBeInTheDocument();
    expect(screen.getByLabelText('value of comparison 3.1.1 in step 3')).toHaveValue('1');
    // Picking an answer for an odd item makes it a comparison.
    await user.selectOptions(screen.getByLabelText('answer of comparison 1 in step 3'), 'age');
    expect((rule() as { all: unknown[] }).all[0]).toEqual({ key: 'age' });
  });
});
