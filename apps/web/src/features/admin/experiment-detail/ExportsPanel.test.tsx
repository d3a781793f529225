import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExportsPanel } from './ExportsPanel';

const ID = '99999999-9999-4999-8999-999999999999';

describe('ExportsPanel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('leaves test runs out of the downloads unless the box is ticked', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        return new Response('x', { status: 200, headers: { 'content-disposition': 'attachment; filename="f.zip"' } });
      }),
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    const user = userEvent.setup();
    render(<ExportsPanel experimentId={ID} />);
    await user.click(screen.getByRole('button', { name: 'Download data-package.zip' }));
    await waitFor(() => expect(urls).toEqual([`/api/experiments/${ID}/export-package`]));
    await user.click(screen.getByRole('checkbox', { name: /Include test runs/ }));
    await user.click(screen.getByRole('button', { name: 'Download transcripts-redacted.csv' }));
    await waitFor(() => expect(urls[1]).toBe(`/api/experiments/${ID}/export-transcripts?include_tests=true`));
  });
});
