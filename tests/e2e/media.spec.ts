import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { DEMO_CREATOR, logInAsDemo } from './support/demo-login.ts';

const MB = 1024 * 1024;

/** A camera-sized JPEG that does not compress well (noise over a gradient), about 5–6 MB. */
async function largePhoto(): Promise<Buffer> {
  const width = 3200;
  const height = 2400;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < pixels.length; i += 3) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const x = (i / 3) % width;
    pixels[i] = (x * 255) / width + (seed & 63);
    pixels[i + 1] = (seed >> 8) & 255;
    pixels[i + 2] = 128 + ((seed >> 16) & 63);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

const smallPng = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: '#39c5bb' } })
    .png()
    .toBuffer();

async function loaded(page: Page, alt: string) {
  const image = page.getByTestId('composer-preview').getByAltText(alt, { exact: true });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  return image;
}

test('a member uploads two images (a large photo compressed under 2 MB) and inserts an emoji; the preview shows them', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const photo = await largePhoto();
  expect(photo.length).toBeGreaterThan(2 * MB);
  await logInAsDemo(page, '/test/rich-comment-input');
  await expect(page.getByRole('heading', { name: '富文本评论输入' })).toBeVisible();
  // Typed before the input hydrates, the text would be replaced by the island's own empty state.
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const box = page.getByLabel('内容');
  await box.fill('你好 ');

  // The emoji picker: sets as tabs, the chosen set's emojis in a 250 px area.
  await page.getByRole('button', { name: '表情', exact: true }).click();
  const picker = page.getByRole('dialog', { name: '选择表情' });
  await expect(picker.getByRole('tab', { name: 'hikari' })).toHaveAttribute('aria-selected', 'true');
  const area = picker.getByRole('tabpanel');
  expect((await area.boundingBox())?.height).toBe(250);
  await picker.getByRole('button', { name: '插入表情 hikari/smile' }).click();
  await expect(picker).toBeHidden();
  await expect(box).toHaveValue('你好 [emoji:hikari/smile]');

  // Two images through the insert dialog.
  await page.getByRole('button', { name: '插入图片' }).click();
  const dialog = page.getByRole('dialog', { name: '插入图片' });
  await dialog.locator('input[type=file]').setInputFiles([
    { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo },
    { name: 'small.png', mimeType: 'image/png', buffer: await smallPng() },
  ]);
  await expect(dialog.getByRole('listitem').filter({ has: page.getByAltText('图片 2') })).toBeVisible();
  await expect(dialog.getByRole('progressbar')).toHaveCount(0, { timeout: 45_000 });
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: '插入', exact: true }).click();
  await expect(dialog).toBeHidden();
  const text = await box.inputValue();
  const urls = [...text.matchAll(/\[img\](.+?)\[\/img\]/g)].map((match) => match[1]!);
  expect(urls).toHaveLength(2);

  // Stored compressed: webp, and the photo under 2 MB.
  for (const url of urls) {
    const answer = await request.get(url);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('image/webp');
    expect(answer.headers()['x-content-type-options']).toBe('nosniff');
    expect((await answer.body()).length).toBeLessThan(2 * MB);
  }

  // The preview renders the emoji (36×36 through /img) and both images, previewable as a group.
  const smile = await loaded(page, '表情:hikari/smile');
  expect(await smile.getAttribute('src')).toMatch(/^\/img\?.*w=36.*h=36|^\/img\?.*h=36.*w=36/);
  expect(await smile.getAttribute('width')).toBe('36');
  await loaded(page, '图片1');
  await (await loaded(page, '图片2')).click();
  await expect(page.getByText('2 / 2')).toBeVisible();
});

test('visitors are asked to log in before uploading or opening the emoji sets', async ({ page }) => {
  await page.goto('/test/rich-comment-input');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByRole('button', { name: '插入图片' }).click();
  await expect(page.getByText('请先登录').first()).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('button', { name: '表情', exact: true }).click();
  await expect(page.getByRole('dialog', { name: '选择表情' })).toHaveCount(0);
  // A known emoji in text still shows for a visitor; an unknown one stays text.
  await page.getByLabel('内容').fill('[emoji:hikari/smile] [emoji:hikari/nope]');
  const preview = page.getByTestId('composer-preview');
  await expect(preview.getByAltText('表情:hikari/smile')).toBeVisible();
  await expect(preview).toContainText('[emoji:hikari/nope]');
  await expect(preview.getByAltText('表情:hikari/nope')).toHaveCount(0);
});

test('a creator makes an emoji set from several images, then renames, reorders and empties it', async ({ page }) => {
  test.setTimeout(60_000);
  await logInAsDemo(page, '/create/emoji', DEMO_CREATOR);
  await expect(page.getByRole('heading', { name: '添加表情', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: '创作中心导航' }).first()).toBeVisible();
  await page.getByLabel('新建表情包').fill('e2e_face');
  await page.getByRole('button', { name: '创建表情包' }).click();
  await expect(page.getByText('已创建表情包「e2e_face」')).toBeVisible();

  const images = await Promise.all(
    ['#e85d75', '#39c5bb', '#f2b134'].map((background) =>
      sharp({ create: { width: 128, height: 128, channels: 4, background } })
        .png()
        .toBuffer(),
    ),
  );
  await page
    .locator('input[type=file]')
    .setInputFiles(
      images.map((buffer, index) => ({ name: ['red', 'teal', 'gold'][index] + '.png', mimeType: 'image/png', buffer })),
    );
  await expect(page.getByLabel('表情 3 的名称')).toHaveValue('gold', { timeout: 20_000 });
  await page.getByLabel('表情 1 的名称').fill('rose');
  await page.getByRole('button', { name: '添加到表情包' }).click();
  await expect(page.getByText('已添加 3 个表情')).toBeVisible();

  await page.goto('/create/emoji/manage');
  const row = page.getByRole('listitem').filter({ hasText: 'e2e_face' });
  await expect(row).toContainText('3 个表情');
  await row.getByRole('button', { name: '展开 e2e_face' }).click();
  await expect(row.getByText('rose')).toBeVisible();
  await row.getByRole('button', { name: '后移 rose' }).click();
  await expect(row.locator('li').first()).toContainText('teal');

  await row.getByRole('button', { name: '重命名 e2e_face' }).click();
  await page.getByLabel('表情包名称').fill('e2e_faces');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('已重命名为「e2e_faces」')).toBeVisible();

  const renamed = page.getByRole('listitem').filter({ hasText: 'e2e_faces' });
  await renamed.getByRole('button', { name: '删除表情包 e2e_faces' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除表情包' }).click();
  await expect(page.getByText('已删除表情包「e2e_faces」')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'e2e_faces' })).toHaveCount(0);
});

test('members who are not creators get a 403 page on the emoji pages; visitors are sent to log in', async ({
  page,
}) => {
  const visitor = await page.goto('/create/emoji/manage');
  expect(visitor?.url()).toContain('/login?jumpTo=%2Fcreate%2Femoji%2Fmanage');
  await logInAsDemo(page);
  const answer = await page.goto('/create/emoji');
  expect(answer?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: '需要创作者权限' })).toBeVisible();
});

test('the emoji picker works from the keyboard: focus moves in, arrows move, Enter inserts, Escape closes', async ({
  page,
}) => {
  await logInAsDemo(page, '/test/rich-comment-input');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const trigger = page.getByRole('button', { name: '表情', exact: true });
  await trigger.focus();
  await page.keyboard.press('Enter');
  const tab = page.getByRole('tab', { name: 'hikari' });
  await expect(tab).toBeFocused();
  await expect(page.getByRole('button', { name: '插入表情 hikari/smile' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: '插入表情 hikari/smile' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('button', { name: '插入表情 hikari/sleepy' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: '选择表情' })).toBeHidden();
  await expect(trigger).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(tab).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('内容')).toHaveValue('[emoji:hikari/wink]');
  await expect(page.getByLabel('内容')).toBeFocused();
});

test('the insert dialog takes pasted and dropped images, refuses other files, and checks image links', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await logInAsDemo(page, '/test/rich-comment-input');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByRole('button', { name: '插入图片' }).click();
  const dialog = page.getByRole('dialog', { name: '插入图片' });
  const png = [...(await smallPng())];

  // A pasted image and a dropped one, as the browser hands them over.
  const group = dialog.getByRole('group', { name: '图片' });
  for (const kind of ['paste', 'drop'] as const) {
    await group.evaluate(
      (element, [bytes, how]) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], `${how}.png`, { type: 'image/png' }));
        transfer.items.add(new File(['<svg onload=alert(1)>'], 'note.txt', { type: 'text/plain' }));
        const event =
          how === 'paste'
            ? new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true })
            : new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
        element.dispatchEvent(event);
      },
      [png, kind] as const,
    );
  }
  await expect(dialog.getByAltText('图片 2')).toBeVisible();
  await expect(dialog.getByAltText('图片 3')).toHaveCount(0);
  await expect(dialog.getByRole('progressbar')).toHaveCount(0, { timeout: 20_000 });
  await expect(dialog.getByText('2 / 9')).toBeVisible();

  // Links: empty, not http(s), then a good one.
  const link = dialog.getByLabel('插入图片链接');
  await dialog.getByRole('button', { name: '添加链接' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('请输入图片链接');
  await link.fill('javascript:alert(1)');
  await dialog.getByRole('button', { name: '添加链接' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('请输入正确的图片链接');
  await link.fill('https://example.com/cover.png');
  await dialog.getByRole('button', { name: '添加链接' }).click();
  await expect(dialog.getByText('3 / 9')).toBeVisible();

  // Removing one keeps focus in the dialog, on the next image's remove button.
  await dialog.getByRole('button', { name: '移除图片 1' }).click();
  await expect(dialog.getByRole('button', { name: '移除图片 1' })).toBeFocused();
  await expect(dialog.getByText('2 / 9')).toBeVisible();
  await dialog.getByRole('button', { name: '插入', exact: true }).click();
  const text = await page.getByLabel('内容').inputValue();
  expect(text.match(/\[img\]/g)).toHaveLength(2);
  expect(text).toContain('[img]https://example.com/cover.png[/img]');
});
