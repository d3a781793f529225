import type { AnswerValue, FlowQuestion } from '@studychat/contracts/web';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { QuestionField } from './QuestionField';

function Harness({ question, seen }: { question: FlowQuestion; seen: (v: AnswerValue | undefined) => void }) {
  const [value, setValue] = useState<AnswerValue | undefined>(undefined);
  return (
    <QuestionField
      question={question}
      value={value}
      onChange={(v) => {
        setValue(v);
        seen(v);
      }}
      problem={null}
    />
  );
}

function renderQuestion(question: FlowQuestion) {
  const values: (AnswerValue | undefined)[] = [];
  render(<Harness question={question} seen={(v) => values.push(v)} />);
  return values;
}

describe('QuestionField', () => {
  it('answers a multiple choice question in the options’ order, by keyboard, with the required mark', async () => {
    const values = renderQuestion({
      key: 'pets',
      text: 'Which pets?',
      required: true,
      type: 'multiple',
      options: [
        { value: 'cat', label: 'Cat' },
        { value: 'dog', label: 'Dog' },
      ],
    });
    expect(screen.getByRole('group', { name: /^Which pets\?/ })).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText(/Dog$/));
    await userEvent.click(screen.getByLabelText(/Cat$/));
    expect(values.at(-1)).toEqual(['cat', 'dog']);
    await userEvent.click(screen.getByLabelText(/Dog$/));
    await userEvent.click(screen.getByLabelText(/Cat$/));
    expect(values.at(-1)).toBeUndefined();
  });

  it('leaves a slider unanswered until it is moved, then says the answer', () => {
    const values = renderQuestion({
      key: 'sure',
      text: 'How sure?',
      required: true,
      type: 'slider',
      min: 0,
      max: 100,
      step: 1,
      anchors: { min: 'Not at all', max: 'Completely' },
    });
    expect(screen.getByText(/Move the slider to answer/)).toBeInTheDocument();
    expect(values).toEqual([]);
    fireEvent.change(screen.getByRole('slider', { name: /^How sure\?/ }), { target: { value: '70' } });
    expect(values.at(-1)).toBe(70);
    expect(screen.getByText('Your answer: 70')).toBeInTheDocument();
  });

  it('counts the characters of a free-text answer against its bounds', async () => {
    const values = renderQuestion({
      key: 'why',
      text: 'Why?',
      required: false,
      type: 'text',
      minChars: 2,
      maxChars: 10,
      multiline: true,
    });
    await userEvent.type(screen.getByRole('textbox', { name: 'Why?' }), 'Because');
    expect(values.at(-1)).toBe('Because');
    expect(screen.getByText('7 / 10 characters (at least 2)')).toBeInTheDocument();
  });

  it('shows a likert scale of any length, with a label for each point', async () => {
    const values = renderQuestion({
      key: 'agree',
      text: 'Agree?',
      required: true,
      type: 'likert',
      points: 5,
      labels: ['Strongly disagree', 'Disagree', 'Neither', 'Agree', 'Strongly agree'],
    });
    expect(screen.getAllByRole('radio')).toHaveLength(5);
    await userEvent.click(screen.getByLabelText('4: Agree'));
    expect(values.at(-1)).toBe(4);
  });

  it('takes a number as a number', async () => {
    const values = renderQuestion({
      key: 'age',
      text: 'Age',
      required: true,
      type: 'number',
      min: 18,
      max: 99,
      integer: true,
    });
    await userEvent.type(screen.getByRole('spinbutton', { name: /^Age/ }), '42');
    expect(values.at(-1)).toBe(42);
  });

  it('marks a required scale question with an asterisk and a spoken "required", an optional one with neither (issue 34)', () => {
    renderQuestion({
      key: 'worry',
      text: 'How worried?',
      required: true,
      type: 'likert',
      points: 5,
      labels: { min: 'Not', max: 'Very' },
    });
    const group = screen.getByRole('group', { name: /^How worried\?\s*\(required\)$/ });
    expect(group.querySelector('legend [aria-hidden="true"]')).toHaveTextContent('*');
  });

  it('leaves an optional scale question unmarked', () => {
    renderQuestion({
      key: 'worry',
      text: 'How worried?',
      required: false,
      type: 'likert',
      points: 5,
      labels: { min: 'Not', max: 'Very' },
    });
    expect(screen.getByRole('group', { name: 'How worried?' })).toBeInTheDocument();
    expect(screen.queryByText('*')).toBeNull();
  });
});
