import { expect, test } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../playwright.config';
import { analyzeSettled } from '../support/axe';

test('admin logs in, reaches /app and the dashboard, and logs out', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByRole('link', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByRole('banner').getByText(ADMIN_EMAIL)).toBeVisible();
  await page.getByRole('navigation').getByRole('link', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Users/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Experiments/ })).toBeVisible();

  // Already logged in: /login goes straight to /app.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/app$/);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.goto('/app');
  await expect(page).toHaveURL(/\/login$/);
});

test('a wrong password shows the server message and the form stays usable', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await expect(page.getByRole('button', { name: 'Log In' })).toBeEnabled();
  await expect(page).toHaveURL(/\/login$/);
});

test('login validates required fields and email format before calling the server', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
});

test('a revoked or expired token is dropped on the next call and the browser goes to /login', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => {
    // A token-shaped value the server will refuse with 401.
    const payload = btoa(
      JSON.stringify({ userId: '00000000-0000-4000-8000-000000000000', email: 'x@y.z', isAdmin: true }),
    );
    localStorage.setItem('token', `eyJhbGciOiJIUzI1NiJ9.${payload}.bad`);
  });
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('unknown paths redirect to the welcome page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'A research tool for medical communication' })).toBeVisible();
});

for (const path of ['/', '/login']) {
  test(`axe finds no violations on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible();
    const results = await analyzeSettled(page);
    expect(results.violations).toEqual([]);
  });
}
