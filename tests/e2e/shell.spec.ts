import { expect, test } from '@playwright/test';

test.describe('header at desktop width', () => {
  test.use({ viewport: { width: 1100, height: 800 } });

  test('shows the built sections and the ad item, with the current page marked', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: '主导航' });
    await expect(nav.getByRole('link', { name: '首页' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: '社区规范' })).toBeVisible();
    const ad = nav.locator(':scope > [data-nav-type="ad"]');
    await expect(ad).toBeVisible();
    await expect(ad).toHaveAttribute('target', '_blank');
    await expect(ad).toHaveAttribute('rel', 'noopener sponsored');
    await expect(page.getByTestId('nav-more')).toHaveCount(0);
    await expect(page.getByRole('button', { name: '打开菜单' })).toBeHidden();
  });

  test('items that do not fit move into the More dropdown; ads stay; entries navigate', async ({ page }) => {
    await page.goto('/');
    // Widen every item so the real measurement runs out of room at 1100 px.
    await page.addStyleTag({ content: '[data-nav-type="normal"] { padding-inline: 120px !important; }' });
    await page.setViewportSize({ width: 1099, height: 800 });
    await page.setViewportSize({ width: 1100, height: 800 });
    const nav = page.getByRole('navigation', { name: '主导航' });
    const more = page.getByTestId('nav-more');
    await expect(more).toBeVisible();
    await expect(nav.locator(':scope > [data-nav-type="ad"]')).toBeVisible();
    await more.hover();
    const entry = more.getByRole('menuitem', { name: '社区规范' });
    await expect(entry).toBeVisible();
    await entry.click();
    await expect(page).toHaveURL(/\/docs\/community\/community-regulation$/);
  });

  test('login and register in the header come back to the page and query they were clicked on', async ({ page }) => {
    await page.goto('/galgame/list?platform=switch&sort=rating');
    const header = page.locator('header');
    const back = encodeURIComponent('/galgame/list?platform=switch&sort=rating');
    await expect(header.getByRole('link', { name: '登录' })).toHaveAttribute('href', `/login?jumpTo=${back}`);
    await expect(header.getByRole('link', { name: '注册' })).toHaveAttribute('href', `/register?jumpTo=${back}`);
    // Prerendered pages learn their address in the browser.
    await page.goto('/docs/guide/getting-started?tab=1');
    await expect(header.getByRole('link', { name: '登录' })).toHaveAttribute(
      'href',
      `/login?jumpTo=${encodeURIComponent('/docs/guide/getting-started?tab=1')}`,
    );
    await header.getByRole('link', { name: '登录' }).click();
    await expect(page).toHaveURL(/\/login\?jumpTo=%2Fdocs%2Fguide%2Fgetting-started%3Ftab%3D1$/);
  });

  test('the Back button appears with history, not on top-level pages, and goes back', async ({ page }) => {
    await page.goto('/docs/guide/getting-started');
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '首页' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('header-back')).toHaveCount(0);
    // The hero's main button leads to the catalogue, a top-level page without Back.
    await page.getByRole('link', { name: '开始探索' }).click();
    await expect(page).toHaveURL(/\/galgame$/);
    await expect(page.getByTestId('header-back')).toHaveCount(0);
    await page.getByRole('link', { name: '全部作品' }).click();
    await expect(page).toHaveURL(/\/galgame\/list$/);
    const back = page.getByTestId('header-back');
    await expect(back).toBeVisible();
    await expect(back).toContainText('返回');
    await back.click();
    await expect(page).toHaveURL(/\/galgame$/);
  });
});

test.describe('mobile menu at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('opens a side panel that locks scrolling, traps focus, and closes on navigation', async ({ page }) => {
    await page.goto('/docs/guide/getting-started');
    await expect(page.getByRole('navigation', { name: '主导航' })).toBeHidden();
    await page.getByRole('button', { name: '打开菜单' }).click();
    const menu = page.getByTestId('mobile-menu');
    await expect(menu).toBeVisible();
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
    for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
    expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);

    // Tabbing may have reached the search box, whose dropdown lies over the links: leave it first, as a
    // keyboard user would.
    const rules = menu.getByRole('link', { name: '社区规范' });
    await rules.focus();
    await expect(page.getByTestId('search-box-menu').getByRole('listbox')).toHaveCount(0);
    await rules.click();
    await expect(page).toHaveURL(/community-regulation$/);
    await expect(menu).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');

    await page.getByRole('button', { name: '打开菜单' }).click();
    await expect(page.getByTestId('mobile-menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('mobile-menu')).toHaveCount(0);
  });

  test('offers register and login to visitors, says whether it is open, and gives focus back on close', async ({
    page,
  }) => {
    await page.goto('/galgame/list?sort=rating');
    // Not by role: while the menu is open the page behind it is hidden from assistive technology.
    const button = page.locator('header button[aria-label="打开菜单"]');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await button.click();
    const menu = page.getByTestId('mobile-menu');
    await expect(menu).toBeVisible();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const back = encodeURIComponent('/galgame/list?sort=rating');
    await expect(menu.getByRole('link', { name: '注册' })).toHaveAttribute('href', `/register?jumpTo=${back}`);
    await expect(menu.getByRole('link', { name: '登录' })).toHaveAttribute('href', `/login?jumpTo=${back}`);

    await menu.getByRole('button', { name: '关闭菜单' }).click();
    await expect(menu).toHaveCount(0);
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute('aria-expanded', 'false');

    await button.press('Enter');
    await expect(page.getByTestId('mobile-menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('mobile-menu')).toHaveCount(0);
    await expect(button).toBeFocused();

    await button.click();
    await page.getByTestId('mobile-menu').getByRole('link', { name: '注册' }).click();
    await expect(page).toHaveURL(new RegExp(`/register\\?jumpTo=${back}$`));
  });
});

test('image preview: keys, wheel zoom and wrap-around', async ({ page }) => {
  await page.goto('/docs/guide/getting-started');
  await page.locator('img[data-preview-src]').first().click();
  const dialog = page.getByRole('dialog', { name: '图片预览' });
  await expect(dialog).toBeVisible();
  const counter = dialog.getByText(/^\d+ \/ 3$/);
  await expect(counter).toHaveText('1 / 3');
  const image = dialog.locator('img');
  await expect(image).toHaveAttribute('src', /color-modes\.svg$/);

  await dialog.getByRole('button', { name: '上一张' }).click();
  await expect(counter).toHaveText('3 / 3');
  await dialog.getByRole('button', { name: '下一张' }).click();
  await expect(counter).toHaveText('1 / 3');

  const transform = () => image.evaluate((el) => (el as HTMLElement).style.transform);
  await page.keyboard.press('+');
  await expect.poll(transform).toContain('scale(1.15)');
  await page.keyboard.press('=');
  await expect.poll(transform).toContain('scale(1.3)');
  await page.keyboard.press('-');
  await expect.poll(transform).toContain('scale(1.15)');
  await page.keyboard.press('r');
  await expect.poll(transform).toContain('rotate(90deg)');
  await page.keyboard.press(' ');
  await expect.poll(transform).toContain('scale(1)');
  await expect.poll(transform).not.toContain('rotate(90deg)');

  // Wheel over the middle of the stage once the reset animation has finished.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
  );
  const viewport = page.viewportSize();
  await page.mouse.move((viewport?.width ?? 1280) / 2, (viewport?.height ?? 720) / 2);
  await page.mouse.wheel(0, -120);
  await expect.poll(transform).toContain('scale(1.15)');
  await page.mouse.wheel(0, 120);
  await expect.poll(transform).toContain('scale(1)');

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
