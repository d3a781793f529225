import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { downloadWithToken, filenameFromDisposition } from './download';
import { setToken } from './session';

afterEach(() => vi.unstubAllGlobals());

describe('filenameFromDisposition', () => {
  it('reads plain and RFC 5987 file names, preferring the encoded one', () => {
    expect(filenameFromDisposition('attachment; filename="experiment-1-participants.csv"')).toBe(
      'experiment-1-participants.csv',
    );
    expect(filenameFromDisposition("attachment; filename=a.csv; filename*=UTF-8''r%C3%A9sultats.csv")).toBe(
      'résultats.csv',
    );
    expect(filenameFromDisposition('attachment')).toBeNull();
    expect(filenameFromDisposition(null)).toBeNull();
  });
});

describe('downloadWithToken', () => {
  it('fetches with the Bearer token and saves the body under the server file name', async () => {
    setToken('tok-9');
    const fetchMock = vi.fn(() =>
      Promise.resolve(
        new Response('a,b\n1,2\n', {
          status: 200,
          headers: { 'content-disposition': 'attachment; filename="experiment-x-surveys.csv"' },
        }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const created: Blob[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: (blob: Blob) => {
        created.push(blob);
        return 'blob:fake';
      },
      revokeObjectURL: () => undefined,
    });
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });

    const name = await downloadWithToken('/api/experiments/x/export/surveys.csv', 'fallback.csv');

    expect(name).toBe('experiment-x-surveys.csv');
    expect(clicked).toEqual(['experiment-x-surveys.csv']);
    expect(await created[0]?.text()).toBe('a,b\n1,2\n');
    const [, init] = (fetchMock.mock.calls as unknown as [string, RequestInit][])[0] ?? [];
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok-9');
    click.mockRestore();
  });

  it("throws the server's error text", async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        new Response(JSON.stringify({ error: 'Experiment not found', code: 'NOT_FOUND' }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
      ),
    );
    const error: unknown = await downloadWithToken('/api/experiments/x/export/surveys.csv', 'f.csv').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Experiment not found');
  });
});
