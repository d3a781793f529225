import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { CreatedStaff, Experiment, GeneratedCredential, LoginResult } from '@studychat/contracts/web';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';

// Experiments with members (issue 34, docs/decisions/0087): two researchers, each the owner of their own
// experiment; neither sees the other's in the list nor by its address, until it is shared; then the People card
// shows the viewer the people without ways to change them. Phone and laptop, axe clean.

async function researcher(request: APIRequestContext, admin: AdminApi, name: string) {
  const email = `${name}-${Date.now().toString(36)}@lab.test`;
  const created = await admin.call<CreatedStaff>('POST', '/api/admin/staff', { email, role: 'admin' });
  const res = await request.post('/api/auth/login', { data: { email, password: created.password } });
  expect(res.ok()).toBe(true);
  const token = ((await res.json()) as LoginResult).token;
  const call = async <T>(method: 'GET' | 'POST', url: string, data?: unknown): Promise<T> => {
    const reply = await request.fetch(url, { method, headers: { authorization: `Bearer ${token}` }, data });
    if (!reply.ok()) throw new Error(`${method} ${url}: ${reply.status()} ${await reply.text()}`);
    return (await reply.json()) as T;
  };
  return { email, password: created.password, call };
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/app$/);
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, size] of [
    ['phone', { width: 390, height: 844 }],
    ['laptop', { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `/tmp/members-${name}-${label}.png`, fullPage: true });
    const { violations } = await analyzeSettled(page);
    expect(
      violations.map((v) => `${name} ${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
}

test("a member cannot see another member's experiment until it is shared", async ({ page, request }) => {
  const admin = await AdminApi.login(request);
  const alice = await researcher(request, admin, 'alice');
  const bob = await researcher(request, admin, 'bob');
  const stamp = Date.now().toString(36);
  const alices = await alice.call<Experiment>('POST', '/api/experiments', { name: `Alice study ${stamp}` });
  const bobs = await bob.call<Experiment>('POST', '/api/experiments', { name: `Bob study ${stamp}` });
  const [login] = await alice.call<GeneratedCredential[]>('POST', `/api/experiments/${alices.id}/batch-credentials`, {
    count: 1,
  });
  if (!login) throw new Error('no login generated');

  await page.setViewportSize({ width: 1280, height: 800 });
  await logIn(page, bob.email, bob.password);
  await page.goto('/admin/experiments');
  await expect(page.getByRole('row', { name: new RegExp(`Bob study ${stamp}`) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`Alice study ${stamp}`) })).toHaveCount(0);
  // By its address: the same answer as an experiment that does not exist.
  await page.goto(`/admin/experiments/${alices.id}`);
  await expect(page.getByText('Experiment not found')).toBeVisible();
  // Nor its participants in the admin area's Users page (the login Alice made for her experiment).
  await page.goto('/admin/users');
  await expect(page.getByRole('cell', { name: bob.email })).toBeVisible();
  await expect(page.getByRole('cell', { name: login.email })).toHaveCount(0);

  // Bob's own experiment: he owns it and manages its people.
  await page.goto(`/admin/experiments/${bobs.id}`);
  await expect(page.getByTestId('people-summary')).toContainText('You are owner');
  await expect(page.getByLabel('Email of an admin or analyst')).toBeVisible();

  await alice.call('POST', `/api/experiments/${alices.id}/members`, { email: bob.email, role: 'viewer' });
  await page.goto('/admin/experiments');
  await expect(page.getByRole('row', { name: new RegExp(`Alice study ${stamp}`) })).toBeVisible();
  await page.goto('/admin/users');
  await expect(page.getByRole('cell', { name: login.email })).toBeVisible();
  await page.goto(`/admin/experiments/${alices.id}`);
  await expect(page.getByTestId('people-summary')).toContainText('You are viewer');
  await expect(page.getByTestId('member-row')).toHaveCount(2);
  await expect(page.getByLabel('Email of an admin or analyst')).toHaveCount(0);
  // A viewer is offered no changes: no Edit, no state changes, no study logins.
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Study Logins' })).toHaveCount(0);
  await page.getByRole('heading', { name: 'People on this experiment' }).scrollIntoViewIfNeeded();
  await shoot(page, 'people-viewer');
});
