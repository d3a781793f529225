import type { FlowStep, StaticSection } from '@studychat/contracts/web';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, type Call } from '../../test-utils';
import { jsonView, openStep, questionStep, showFlow } from './builder-test-utils';
import { testFlow } from './flow-fixture';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const section = (id: string, title: string): StaticSection => ({
  id,
  title,
  minSeconds: 20,
  blocks: [{ paragraphs: ['Text'] }],
});

/** consent, about (belief), assign (a, b), read (a only), done, out. */
const readingFlow = () =>
  testFlow(
    [
      questionStep('about', [
        { key: 'belief', text: 'Belief?', required: true, type: 'text', minChars: 1, maxChars: 500, multiline: true },
      ]),
      { id: 'assign', type: 'randomise', weights: { a: 1, b: 1 } },
      { id: 'read', type: 'reading', title: 'Read', intro: [], sections: { a: [section('s1', 'First')] } },
    ],
    ['a', 'b'],
  );

const sections = () => (jsonView().steps[3] as Extract<FlowStep, { type: 'reading' }>).sections;

describe('the reading step’s sections form', { timeout: 30_000 }, () => {
  it('adds, edits, reorders and removes sections per condition, and a condition reads or skips', async () => {
    showFlow(readingFlow());
    const user = userEvent.setup();
    await openStep(user, 4);
    const readsA = screen.getByLabelText('This condition reads in step 4 (a)');
    const readsB = screen.getByLabelText('This condition reads in step 4 (b)');
    expect(readsA).toBeChecked();
    expect(readsB).not.toBeChecked();
    expect(screen.getByText('This condition skips the reading.')).toBeInTheDocument();

    await user.click(readsB);
    expect(sections().b).toEqual([
      {
        id: 'section-1',
        title: 'Section 1',
        minSeconds: 30,
        blocks: [{ paragraphs: ['Write the text of this section here.'] }],
      },
    ]);
    expect(screen.queryByText('This condition skips the reading.')).not.toBeInTheDocument();

    const listA = screen.getByRole('group', { name: 'Sections of condition a in step 4' });
    await user.click(within(listA).getByRole('button', { name: 'Add section' }));
    expect(sections().a?.map((s) => s.id)).toEqual(['s1', 'section-2']);
    const of = ' of condition a in step 4';
    const title = screen.getByLabelText(`Title of section 2${of}`);
    await user.clear(title);
    await user.type(title, 'Second');
    const seconds = screen.getByLabelText(`Least seconds on screen of section 2${of}`);
    await user.clear(seconds);
    await user.type(seconds, '45');
    const paragraph = screen.getByLabelText(`Paragraph 1 of block 1 of section 2${of}`);
    await user.clear(paragraph);
    await user.type(paragraph, 'The second text.');
    const textOf1 = within(listA).getByRole('group', { name: 'Text of section 1' });
    await user.click(within(textOf1).getByRole('button', { name: 'Add Markdown block' }));
    await user.type(screen.getByLabelText(`Markdown of block 2 of section 1${of}`), '**Note**');
    expect(sections().a?.[1]).toEqual({
      id: 'section-2',
      title: 'Second',
      minSeconds: 45,
      blocks: [{ paragraphs: ['The second text.'] }],
    });
    expect(sections().a?.[0]?.blocks).toEqual([{ paragraphs: ['Text'] }, { markdown: '**Note**' }]);

    // Keyboard: Move up, then Remove, by their names.
    screen.getByRole('button', { name: `Move section 2 up${of}` }).focus();
    await user.keyboard('{Enter}');
    expect(sections().a?.map((s) => s.id)).toEqual(['section-2', 's1']);
    await user.click(screen.getByRole('button', { name: `Remove section 2${of}` }));
    expect(sections().a?.map((s) => s.id)).toEqual(['section-2']);

    await user.click(readsA);
    expect(Object.keys(sections())).toEqual(['b']);
    // The builder's new reading step reads a section for every condition.
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('shows the contract’s messages at the field: a pipe to a later answer, least seconds out of range, no section', async () => {
    // The server's check, as the contract words it (flow/schema.ts): least seconds 1 to 3600, a section at least.
    const serverIssues = (call: Call) => {
      const read = (call.body as { definition: { steps: FlowStep[] } }).definition.steps[3];
      if (read?.type !== 'reading') return [];
      return Object.entries(read.sections).flatMap(([c, list]) =>
        list.length === 0
          ? [{ path: `steps.3.sections.${c}`, message: 'a condition that reads needs at least one section' }]
          : list.flatMap((s, i) =>
              s.minSeconds >= 1 && s.minSeconds <= 3600
                ? []
                : [{ path: `steps.3.sections.${c}.${i}.minSeconds`, message: 'must be 1 to 3600' }],
            ),
      );
    };
    showFlow(readingFlow(), {
      'POST /api/admin/study-versions/check': (call) => json(200, { issues: serverIssues(call) }),
    });
    const user = userEvent.setup();
    await openStep(user, 4);
    const of = ' of condition a in step 4';

    // The browser's own check, at once: a pipe to an answer not given before this step.
    const title = screen.getByLabelText(`Title of section 1${of}`);
    await user.type(title, ' {{{{rating}}');
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(title).toHaveAccessibleDescription('{{rating}} is not an answer given before this step');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(title);
    await user.type(title, 'First');
    expect(title).not.toHaveAttribute('aria-invalid');

    const seconds = screen.getByLabelText(`Least seconds on screen of section 1${of}`);
    await user.clear(seconds);
    await user.type(seconds, '0');
    expect(await screen.findByText('must be 1 to 3600', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(seconds).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(seconds);
    await user.type(seconds, '10');

    await user.click(screen.getByRole('button', { name: `Remove section 1${of}` }));
    const list = screen.getByRole('group', { name: `Sections${of}` });
    expect(
      await within(list).findByText('a condition that reads needs at least one section', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(list).toHaveAccessibleDescription('a condition that reads needs at least one section');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('adds a new reading step with a section for every condition', async () => {
    showFlow(testFlow([{ id: 'assign', type: 'randomise', weights: { a: 1, b: 1 } }], ['a', 'b']));
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Study builder' });
    await user.selectOptions(screen.getByLabelText('Type of the new step'), 'Timed reading');
    await user.click(screen.getByRole('button', { name: 'Add step' }));
    const read = jsonView().steps[2] as Extract<FlowStep, { type: 'reading' }>;
    expect(read.type).toBe('reading');
    expect(Object.keys(read.sections)).toEqual(['a', 'b']);
    expect(screen.getByLabelText('This condition reads in step 3 (b)')).toBeChecked();
  });

  it('shows hostile sections from the JSON without breaking: a condition whose sections are not a list reads none', async () => {
    const flow = readingFlow();
    const read = flow.steps[3] as Extract<FlowStep, { type: 'reading' }>;
    read.sections = { a: 'x', b: [null] } as never;
    showFlow(flow);
    const user = userEvent.setup();
    await openStep(user, 4);
    expect(screen.getByLabelText('This condition reads in step 4 (a)')).not.toBeChecked();
    expect(screen.getByLabelText('This condition reads in step 4 (b)')).toBeChecked();
    expect(screen.getByLabelText('Title of section 1 of condition b in step 4')).toHaveValue('');
    await user.click(screen.getByLabelText('This condition reads in step 4 (a)'));
    expect(sections().a).toHaveLength(1);
  });
});
