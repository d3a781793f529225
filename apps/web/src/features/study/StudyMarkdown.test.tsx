import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { ContentBlocks } from './ContentBlocks';
import StudyMarkdown from './StudyMarkdown';

// The renderer is safe on its own, not only behind the server's check (docs/decisions/0052): a version
// written before the check, or a check that misses something, still cannot put markup on a participant's page.

describe('StudyMarkdown', () => {
  it('renders headings one level below the page title, emphasis, lists, quotes and GFM tables', () => {
    const { container } = render(
      <StudyMarkdown
        text={[
          '# Why sleep matters',
          '## In short',
          'Children need **9 to 12 hours** of *sleep*.',
          '- Same time every night.',
          '- No screens.',
          '',
          '> A calm routine helps.',
          '',
          '| Age | Hours |',
          '| --- | ---: |',
          '| 6-12 | 9-12 |',
        ].join('\n')}
      />,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Why sleep matters' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'In short' })).toBeInTheDocument();
    expect(container.querySelector('strong')).toHaveTextContent('9 to 12 hours');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Same time every night.',
      'No screens.',
    ]);
    expect(container.querySelector('blockquote')).toHaveTextContent('A calm routine helps.');
    expect(screen.getByRole('cell', { name: '9-12' })).toHaveStyle({ textAlign: 'right' });
  });

  it('shows raw HTML as text: no script, image, iframe or event handler reaches the page', () => {
    const hostile = [
      '<script>window.hacked = true</script>',
      '',
      'Before <img src="x" onerror="window.hacked = true"> after <b>bold</b>.',
      '',
      '<iframe src="https://evil.example.org"></iframe>',
    ].join('\n');
    const { container } = render(<StudyMarkdown text={hostile} />);
    for (const tag of ['script', 'img', 'iframe', 'b']) expect(container.querySelector(tag)).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container).toHaveTextContent('<script>window.hacked = true</script>');
    expect(container).toHaveTextContent('<b>bold</b>');
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('makes no link of a javascript:, data: or relative address, and no image from elsewhere', () => {
    const { container } = render(
      <StudyMarkdown
        text={[
          '[run](javascript:alert(1)) [encoded](javascript&#58;alert(1)) [data](data:text/html,x) [admin](/admin)',
          '<javascript:alert(1)>',
          '![pixel](https://evil.example.org/pixel.png)',
          '[read more](https://example.org/sleep) [mail](mailto:team@example.org)',
        ].join('\n\n')}
      />,
    );
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.org/sleep', 'mailto:team@example.org']);
    for (const a of links) {
      expect(a).toHaveAttribute('target', '_blank');
      expect(a).toHaveAttribute('rel', 'noopener noreferrer');
    }
    // The refused links keep their words, as text.
    expect(container).toHaveTextContent('run encoded data admin');
    expect(container.querySelector('img')).toBeNull();
  });
});

describe('ContentBlocks with Markdown', () => {
  it('loads the renderer on demand, showing the fallback until it is there', async () => {
    render(
      <Suspense fallback={<p>Loading...</p>}>
        <ContentBlocks blocks={[{ markdown: 'A **Markdown** body.' }, { paragraphs: ['A plain paragraph.'] }]} />
      </Suspense>,
    );
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByText('Markdown')).toContainHTML('<strong>Markdown</strong>');
    expect(screen.getByText('A plain paragraph.')).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).toBeNull();
  });
});
