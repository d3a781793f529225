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

/** consent, about (belief), note (a page), done, out. */
const flow = () =>
  testFlow([
    questionStep('about', [
      { key: 'belief', text: 'Belief?', required: true, type: 'text', minChars: 1, maxChars: 500, multiline: true },
    ]),
    {
      id: 'note',
      type: 'page',
      title: 'Note',
      blocks: [{ heading: 'Yours', paragraphs: ['You wrote: '] }],
      button: 'Next',
    },
  ]);

type Blocks = Extract<FlowStep, { type: 'page' }>['blocks'];
const blocksOf = (n: number) => (jsonView().steps[n - 1] as { blocks: Blocks }).blocks;

describe('Insert answer in content blocks', { timeout: 30_000 }, () => {
  it('inserts an earlier answer at the cursor of a paragraph, a heading, a bullet and a Markdown block', async () => {
    showFlow(flow());
    const user = userEvent.setup();
    await openStep(user, 3);
    const of = ' of block 1 of step 3';
    const paragraph = screen.getByLabelText(`Paragraph 1${of}`);
    await user.click(paragraph);
    await user.keyboard('{End}');
    await user.click(screen.getByRole('button', { name: `Insert answer into Paragraph 1${of}` }));
    const menu = screen.getByRole('list', { name: `Answers given before this step, for Paragraph 1${of}` });
    // Only the answers given before this step.
    expect(
      within(menu)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['{{belief}}']);
    await user.click(within(menu).getByRole('button', { name: '{{belief}}' }));
    expect(blocksOf(3)[0]?.paragraphs).toEqual(['You wrote: {{belief}}']);
    // The menu gives the focus back in the next animation frame.
    await waitFor(() => expect(paragraph).toHaveFocus());

    // At the cursor, not at the end: the pipe goes before "Yours".
    const heading = screen.getByLabelText('Heading of block 1 (optional) of step 3');
    await user.click(heading);
    (heading as HTMLInputElement).setSelectionRange(0, 0);
    await user.click(screen.getByRole('button', { name: 'Insert answer into Heading of block 1 of step 3' }));
    await user.click(screen.getByRole('button', { name: '{{belief}}' }));
    expect(blocksOf(3)[0]?.heading).toBe('{{belief}}Yours');

    const blocks = screen.getByRole('group', { name: 'Text blocks of step 3' });
    const bullets = within(blocks).getByRole('group', { name: 'Bullets of block 1' });
    await user.click(within(bullets).getByRole('button', { name: 'Add bullet' }));
    await user.click(screen.getByRole('button', { name: `Insert answer into Bullet 1${of}` }));
    await user.click(screen.getByRole('button', { name: '{{belief}}' }));
    await user.click(within(blocks).getByRole('button', { name: 'Add Markdown block' }));
    await user.click(screen.getByRole('button', { name: 'Insert answer into Markdown of block 2 of step 3' }));
    await user.click(screen.getByRole('button', { name: '{{belief}}' }));
    expect(blocksOf(3)).toEqual([
      { heading: '{{belief}}Yours', paragraphs: ['You wrote: {{belief}}'], bullets: ['{{belief}}'] },
      { markdown: '{{belief}}' },
    ]);
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('offers no answer before the first question, and the end step every earlier one; a pipe typed to a later answer is refused at its field', async () => {
    showFlow(flow());
    const user = userEvent.setup();
    await openStep(user, 1);
    await user.click(screen.getByRole('button', { name: 'Insert answer into Paragraph 1 of block 1 of step 1' }));
    expect(screen.getByText('No answers are given before this step.')).toBeInTheDocument();
    // Escape closes the menu.
    await user.keyboard('{Escape}');
    expect(screen.queryByText('No answers are given before this step.')).not.toBeInTheDocument();

    const paragraph = screen.getByLabelText('Paragraph 1 of block 1 of step 1');
    await user.type(paragraph, ' {{{{belief}}');
    expect(paragraph).toHaveAttribute('aria-invalid', 'true');
    expect(paragraph).toHaveAccessibleDescription('{{belief}} is not an answer given before this step');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await openStep(user, 1);

    await openStep(user, 4);
    await user.click(screen.getByRole('button', { name: 'Insert answer into Paragraph 1 of block 1 of step 4' }));
    expect(screen.getByRole('button', { name: '{{belief}}' })).toBeInTheDocument();
  });
});

describe('the save bar', () => {
  it('sticks within a box that starts below the heading, so it cannot cover it', async () => {
    showFlow(flow());
    const heading = await screen.findByRole('heading', { name: 'Study builder' });
    const bar = screen.getByRole('button', { name: 'Save' }).parentElement as HTMLElement;
    expect(bar.className).toContain('sticky');
    // A sticky element rises at most to the top of its parent: the heading must not be inside that parent.
    expect(bar.parentElement?.contains(heading)).toBe(false);
    expect(heading.compareDocumentPosition(bar.parentElement as Node) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
