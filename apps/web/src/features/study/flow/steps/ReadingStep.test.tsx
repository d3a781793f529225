import type { FlowStepView } from '@studychat/contracts/web';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReadingStep } from './ReadingStep';

type ReadingView = Extract<FlowStepView, { type: 'reading' }>;

const view = (index: number, remainingSeconds: number): ReadingView => ({
  id: 'read',
  type: 'reading',
  title: 'Please read',
  intro: index === 0 ? ['Three short texts follow.'] : [],
  section: {
    index,
    count: 3,
    title: `Section ${index + 1}`,
    blocks: [{ paragraphs: [`The text of section ${index + 1}.`] }],
    remainingSeconds,
  },
});

afterEach(() => vi.useRealTimers());

describe("a flow's reading step", () => {
  it('offers Next once the section has been on screen its minimum and read to its end, with the seconds seen', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onFinish = vi.fn();
    render(<ReadingStep step={view(0, 5)} sending={false} message={null} retryInSeconds={null} onFinish={onFinish} />);
    expect(screen.getByText('Three short texts follow.')).toBeInTheDocument();
    expect(screen.getByText('Section 1 of 3')).toBeInTheDocument();
    expect(await screen.findByText('The text of section 1.')).toBeInTheDocument();
    const next = screen.getByRole('button', { name: 'Next section' });
    expect(next).toBeDisabled();
    expect(screen.getByText('You can continue in 5 s.')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    expect(next).toBeEnabled();
    next.click();
    expect(onFinish).toHaveBeenCalledOnce();
    const sent = onFinish.mock.calls[0]?.[0] as { section: number; visibleSeconds: number; hiddenSeconds: number };
    expect(sent).toMatchObject({ section: 0, hiddenSeconds: 0 });
    expect(sent.visibleSeconds).toBeGreaterThanOrEqual(5);
  });

  it("counts again from the server's seconds when it refused a finish as too early", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    render(
      <ReadingStep
        step={view(2, 0)}
        sending={false}
        message="Please keep reading: this section can be finished in 3 seconds."
        retryInSeconds={3}
        onFinish={() => undefined}
      />,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('finished in 3 seconds');
    const button = screen.getByRole('button', { name: 'Continue' });
    expect(button).toBeDisabled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3_000);
    });
    expect(button).toBeEnabled();
  });
});
