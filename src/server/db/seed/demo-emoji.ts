import sharp from 'sharp';
import { importEmojiSet } from '../../modules/emoji/emoji.service.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { Db } from '../database.ts';
import { demoEmojiArt } from './demo-emoji.art.ts';

/** The demo emoji set, written in text as `[emoji:hikari/smile]`. */
export const DEMO_EMOJI_SET = 'hikari';
/** Stored size of the demo emojis: shown at 36 px, sharp on screens of density 2 and more. */
const EMOJI_PX = 96;

/** One drawing as the webp an uploaded emoji would be. */
export async function renderDemoEmoji(svg: string): Promise<Buffer> {
  // Drawn at twice the size, then scaled down: smoother edges than rendering at 96 px.
  return sharp(Buffer.from(svg), { density: 144 }).resize(EMOJI_PX, EMOJI_PX).webp({ quality: 90 }).toBuffer();
}

/**
 * The demo set "hikari", made by the demo creator account, with the emojis of demo-emoji.art.ts stored
 * as `emoji/{setId}/{name}.webp`. Emojis the set already has are left as they are.
 */
export async function seedDemoEmoji(db: Db, storage: Storage, now: Date): Promise<{ emojis: number }> {
  const creator = await db.selectFrom('users').select('id').where('name', '=', 'hikari_creator').executeTakeFirst();
  const emojis = [];
  for (const [name, svg] of Object.entries(demoEmojiArt)) emojis.push({ name, webp: await renderDemoEmoji(svg) });
  await importEmojiSet({ db, storage }, { name: DEMO_EMOJI_SET, createdBy: creator?.id ?? null, emojis }, now);
  return { emojis: emojis.length };
}
