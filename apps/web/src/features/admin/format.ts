import { ApiError } from '../../lib/api';

/** A timestamp in the reader's local date-time format, or `empty` when there is none. */
export function formatDateTime(iso: string | null | undefined, empty = 'N/A'): string {
  if (!iso) return empty;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** Ids are shown by their first 8 characters. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** The server's error text when it sent one (or could not be reached), else the given fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.code === 'UNKNOWN' ? fallback : error.message;
  return fallback;
}

/** The server's error text or the error's own message (spec: '{server error or message}'). */
export function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
