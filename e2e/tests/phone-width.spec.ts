import { expect, test } from '@playwright/test';
import { completeParticipantViaApi, loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';

// On a 390 px phone no page of the admin area scrolls sideways: a wide table scrolls inside its own box
// (components/TableScroll.tsx), and nothing inside that box (a screen-reader-only label) widens the page.

test('no admin page is wider than a phone', async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await AdminApi.login(request);
  const experiment = await api.createExperiment(`Phone width ${Date.now()}`);
  const [credential] = await api.credentials(experiment.id, 1);
  if (!credential) throw new Error('no credential generated');
  const done = await completeParticipantViaApi(request, experiment.id, credential);
  // A study version with a long label: the version pickers list it, and a select grows to its longest option.
  const [first] = await api.call<{ id: string }[]>('GET', '/api/admin/study-versions');
  if (!first) throw new Error('no study version');
  await api.call('POST', `/api/admin/study-versions/${first.id}/clone`, {
    label: `A study version whose label is long enough to be wider than a phone ${Date.now()}`,
  });

  await loginAsAdmin(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const pages = [
    '/admin',
    '/admin/experiments',
    `/admin/experiments/${experiment.id}`,
    '/admin/studies',
    '/admin/users',
    `/admin/user/${done.userId}`,
    '/admin/people',
    '/admin/security',
    '/admin/audit',
  ];
  for (const url of pages) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    // Every part of the page has loaded (no spinner left), so its widest table is on it.
    await expect(page.locator('.animate-spin')).toHaveCount(0, { timeout: 20_000 });
    const { width, widest } = await page.evaluate(() => {
      // What sticks out: elements past the right edge that no scroll box of theirs holds in.
      const held = (el: Element) => {
        for (let a = el.parentElement; a; a = a.parentElement) {
          if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(a).overflowX)) return true;
        }
        return false;
      };
      const out = Array.from(document.querySelectorAll('body *'))
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !held(el))
        .map((el) => `${el.tagName} "${(el.textContent ?? '').slice(0, 40)}"`);
      return { width: document.documentElement.scrollWidth, widest: out.slice(0, 5) };
    });
    expect(width, `${url} is ${width} px wide: ${widest.join('; ')}`).toBe(390);
  }
});
