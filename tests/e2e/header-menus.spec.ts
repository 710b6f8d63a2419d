import { expect, test } from '@playwright/test';
import { DEMO, logInAsDemo } from './support/demo-login.ts';

test.use({ viewport: { width: 1100, height: 800 } });

test('the avatar menu opens with the mouse and the keyboard, moves focus and closes on Escape and outside clicks', async ({
  page,
}) => {
  await logInAsDemo(page);

  const button = page.getByTestId('user-menu-button');
  const menu = page.getByRole('menu', { name: '用户菜单' });
  await expect(button).toHaveAttribute('aria-haspopup', 'menu');
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  // Mouse: opens, shows the name and HP, closes on a click outside.
  await button.click();
  await expect(menu).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(menu.getByTestId('user-menu-name')).toHaveText(DEMO.account);
  await expect(menu.getByTestId('user-menu-hp')).toBeVisible();
  // One cover choice is checked (which one depends on what other tests chose for the demo account).
  await expect(menu.getByRole('menuitemradio', { checked: true })).toHaveCount(1);
  // On the page's heading: a click outside that does not also follow a link (and swap the page).
  await page.getByRole('heading', { level: 1 }).click();
  await expect(menu).toHaveCount(0);
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  // Keyboard: Enter opens it with focus inside, arrows move between items, Escape closes it and gives
  // focus back to the avatar.
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await expect(menu.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem', { name: '退出登录' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitemradio').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(button).toBeFocused();

  // ArrowDown on the button opens it too; Enter on an item acts on it.
  await page.keyboard.press('ArrowDown');
  await expect(menu).toBeVisible();
  await expect(menu.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem', { name: '退出登录' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveCount(0);
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('确定要退出登录吗？');
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(page.getByTestId('user-menu-button')).toBeVisible();
});

test('the More menu opens on hover, on click and from the keyboard, and closes on Escape', async ({ page }) => {
  await page.goto('/');
  // Widen every item so the real measurement runs out of room at 1100 px.
  await page.addStyleTag({ content: '[data-nav-type="normal"] { padding-inline: 120px !important; }' });
  await page.setViewportSize({ width: 1099, height: 800 });
  await page.setViewportSize({ width: 1100, height: 800 });
  const more = page.getByTestId('nav-more');
  const trigger = more.getByRole('button', { name: '更多' });
  const menu = page.getByRole('menu');
  await expect(trigger).toHaveAttribute('aria-haspopup', 'menu');

  // Hover opens it and leaving closes it; a click while open keeps it open.
  await trigger.hover();
  await expect(menu).toBeVisible();
  await trigger.click();
  await expect(menu).toBeVisible();
  await page.mouse.move(20, 600);
  await expect(menu).toHaveCount(0);

  // Keyboard: Enter opens it with the first entry focused; arrows wrap; Escape closes it.
  await trigger.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  const items = menu.getByRole('menuitem');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(trigger).toBeFocused();
  await expect(trigger).toHaveAttribute('aria-expanded', 'false');

  // Enter on an entry navigates.
  await page.keyboard.press('Enter');
  await menu.getByRole('menuitem', { name: '社区规范' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/docs\/community\/community-regulation$/);
});
