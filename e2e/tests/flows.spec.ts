import { expect, test } from '@playwright/test';
import { beliefChangeTemplate, FLOW_TEMPLATES } from '@studychat/contracts/web';
import { analyzeSettled } from '../support/axe';
import { doStep, setupFlow, stepOnScreen, type FlowStepSeen } from '../support/flow';
import { landingUrl, logInOnLanding } from '../support/participant';

// Studies written as flows (issue 30), on a phone: each template walked to its code through the real pages, and
// a second device resuming inside a step.

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  for (const template of FLOW_TEMPLATES) {
    test(`the ${template.id} template, from the Prolific link to its code`, async ({ page, request }) => {
      const setup = await setupFlow(request, template);
      await page.clock.install();
      await page.goto(landingUrl(setup));
      await logInOnLanding(page, setup);
      await expect(page).toHaveURL(new RegExp(`/flow/${setup.experimentId}$`));
      // The study's own words in the footer, not the built-in study's medical disclaimer.
      await expect(page.getByText(template.texts.disclaimer)).toBeVisible();
      await expect(page.getByText(/does not provide medical advice/)).toHaveCount(0);
      const seen: FlowStepSeen[] = [];
      for (let i = 0; i < 20; i++) {
        const kind = await doStep(page, request);
        seen.push(kind);
        if (kind === 'page' && i === 0) expect((await analyzeSettled(page)).violations).toEqual([]);
        if (kind === 'end') break;
      }
      expect(seen.at(-1)).toBe('end');
      await expect(page.getByText(setup.codes.complete ?? '')).toBeVisible();
      await expect(page.getByRole('link', { name: /Submit code on Prolific/ })).toBeVisible();
      expect((await analyzeSettled(page)).violations).toEqual([]);
      await page.screenshot({ path: `test-results/flow-${template.id}-end.png`, fullPage: true });
    });
  }

  test('a second device resumes inside the AI text and the chat, where the first left off', async ({
    page,
    browser,
    request,
  }) => {
    const setup = await setupFlow(request, beliefChangeTemplate);
    await page.clock.install();
    await page.goto(landingUrl(setup));
    await logInOnLanding(page, setup);
    // Consent, then the belief: the AI text is next.
    while ((await stepOnScreen(page)) !== 'ai_text') await doStep(page, request);
    await expect(page.getByRole('textbox')).not.toHaveValue('');
    const summary = await page.getByRole('textbox').inputValue();
    await page.screenshot({ path: 'test-results/flow-ai-text.png', fullPage: true });

    const second = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const other = await second.newPage();
    await other.goto(landingUrl(setup));
    await logInOnLanding(other, setup);
    await expect(other).toHaveURL(new RegExp(`/flow/${setup.experimentId}$`));
    // The same text: written once, never a second model call's.
    await expect(other.getByRole('textbox')).toHaveValue(summary);
    // The second device goes on to the chat; the first follows the server when it tries its stale step.
    while ((await stepOnScreen(other)) !== 'chat') await doStep(other, request);
    await page.getByRole('main').getByRole('button').last().click();
    await expect(page.getByRole('button', { name: 'Proceed' })).toBeVisible();
    await second.close();
  });
});
