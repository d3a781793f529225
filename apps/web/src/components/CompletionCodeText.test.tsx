import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CompletionCodeText } from './CompletionCodeText';

describe('CompletionCodeText', () => {
  it('keeps a long code on one line, shrinking to fit rather than breaking it (issue 34)', () => {
    const code = 'C1A2B3C4D5E6F7G8H9J0-KLMNPQRSTUVWXYZ-2026';
    render(<CompletionCodeText code={code} />);
    const text = screen.getByTestId('completion-code');
    expect(text).toHaveTextContent(code);
    expect(text.className).toContain('whitespace-nowrap');
    expect(text.className).toContain('[word-break:keep-all]');
    expect(text.className).not.toContain('break-all');
    // Sideways scrolling is the last resort for a code too long to fit even at the smallest size.
    expect(text.className).toContain('overflow-x-auto');
    // The size follows the code's length: the width it has divided by the code's width in em.
    expect(text.style.getPropertyValue('--code-ems')).toBe((code.length * 0.7).toFixed(2));
    expect(text.parentElement?.className).toContain('@container');
  });

  it('gives a short code the same room per character', () => {
    render(<CompletionCodeText code="C1A2B3" />);
    expect(screen.getByTestId('completion-code').style.getPropertyValue('--code-ems')).toBe('4.20');
  });
});
