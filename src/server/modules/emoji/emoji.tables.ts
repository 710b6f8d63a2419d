import type { Selectable } from 'kysely';

/** An emoji set: its current name, its place among the sets, and who created it. */
export interface EmojiSetTable {
  id: number;
  name: string;
  /** 0 for the first tab of the picker; kept dense (0…n-1) by every write. */
  position: number;
  /** users.id of the creator; null once that account is removed (the set stays: text uses it). */
  created_by: string | null;
  created_at: string;
  /** Moves forward on every change to the set or its emojis (never twice the same value). */
  updated_at: string;
}
export type EmojiSetRow = Selectable<EmojiSetTable>;

/**
 * Every name that leads to a set: its current name and the names it had before, so text written with
 * an earlier name still finds its emojis. The name is the key, so no two sets ever share one.
 */
export interface EmojiSetAliasTable {
  name: string;
  emoji_set_id: number;
  created_at: string;
}

/** An emoji of a set. The image is stored under `image_key`; its address is the storage's public URL. */
export interface EmojiTable {
  id: number;
  emoji_set_id: number;
  name: string;
  image_key: string;
  /** 0 for the first emoji of the set; kept dense (0…n-1) by every write. */
  position: number;
  created_at: string;
}
export type EmojiRow = Selectable<EmojiTable>;

declare module '../../db/database.ts' {
  interface Database {
    emoji_set: EmojiSetTable;
    emoji_set_alias: EmojiSetAliasTable;
    emoji: EmojiTable;
  }
}

declare module '../../db/ids.ts' {
  interface IdCounters {
    emoji_set_id: true;
    emoji_id: true;
  }
}
