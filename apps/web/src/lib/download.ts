import { authHeaders, errorFromResponse, handleUnauthorized } from './api';

/** The file name from a Content-Disposition header, if it carries one. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // Fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() ?? null;
}

/**
 * Fetches a file with the Bearer token and saves it as a download: a plain link cannot carry the token.
 * Throws ApiError with the server's message on failure.
 */
export async function downloadWithToken(url: string, fallbackName: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { headers: authHeaders() });
  } catch {
    throw new Error('Could not reach the server. Please check your connection and try again.');
  }
  if (!res.ok) {
    handleUnauthorized(res.status, url);
    throw await errorFromResponse(res);
  }
  const name = filenameFromDisposition(res.headers.get('content-disposition')) ?? fallbackName;
  saveBlob(await res.blob(), name);
  return name;
}

/** Saves text made in the browser (e.g. logins that exist only on this page) as a file download. */
export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  saveBlob(new Blob([text], { type }), name);
}

function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoke later: some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
