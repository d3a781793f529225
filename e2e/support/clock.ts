import type { APIRequestContext, Page } from '@playwright/test';
import { AdminApi } from './api';

/**
 * Time passes for the participant's page and for the server alike: the page's fake clock jumps (install it
 * first with `page.clock.install()`) and the server's test clock moves by the same amount, so a section's
 * minimum is met on the server's clock without the test waiting for it.
 */
export async function passTime(page: Page, request: APIRequestContext, ms: number): Promise<void> {
  await (await AdminApi.login(request)).advanceClock(ms);
  await page.clock.fastForward(ms);
}

/** Only the server's clock moves (a request made outside any page, e.g. through the API). */
export async function passServerTime(request: APIRequestContext, ms: number): Promise<void> {
  await (await AdminApi.login(request)).advanceClock(ms);
}

/** Makes the page hidden or visible as switching tabs or apps would (Page Visibility API). */
export async function setPageVisible(page: Page, visible: boolean): Promise<void> {
  await page.evaluate(
    (state) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => state === 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    },
    visible ? 'visible' : 'hidden',
  );
}
