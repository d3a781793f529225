import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe's findings once the page's colour transitions have settled: a choice or button just clicked animates its
 * colours (transition-colors, in real time even with the page's clock installed), and contrast measured halfway
 * between white and the brand colour is a false violation. Endless animations (a spinner) are not waited for.
 */
export async function analyzeSettled(page: Page): ReturnType<AxeBuilder['analyze']> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
  );
  return new AxeBuilder({ page }).analyze();
}
