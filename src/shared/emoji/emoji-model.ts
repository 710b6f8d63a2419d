/**
 * Emoji sets and emojis (spec §3 Emoji, §7 Emoji). An emoji is written in text as
 * `[emoji:{set name}/{emoji name}]`; its image lives in our storage under `emoji/{setId}/…`.
 */

/** Local-storage key of the client's emoji cache (spec §4). */
export const EMOJI_CACHE_KEY = 'hikari_emoji_cache';
/** Emoji are shown at this size, as webp through /img (spec §9). */
export const EMOJI_DISPLAY_PX = 36;
/** The picker's emoji area is this high (spec §9). */
export const EMOJI_PICKER_HEIGHT_PX = 250;

/** Names of sets and emojis: letters, digits, '_', '.', '-' (what the marker grammar reads), at most 32. */
export const EMOJI_NAME_MAX = 32;
/** At most this many emojis in one set, and in one "add emojis" call. */
export const EMOJI_SET_MAX_EMOJIS = 200;
export const EMOJI_ADD_BATCH_MAX = 50;
/** Sets a member of the creator group may have created (editors and above are not counted). */
export const EMOJI_SETS_PER_CREATOR = 20;
/**
 * Earlier names a set keeps after renames, so text written with them still shows its emojis; a set
 * renamed this often cannot be renamed to a new name again (only back to one of its names).
 */
export const EMOJI_SET_MAX_OLD_NAMES = 10;
/** Largest `order` a set can be moved to (a position past the last set means last). */
export const EMOJI_SET_ORDER_MAX = 10_000;

export interface EmojiSetSummary {
  id: number;
  name: string;
  /** Position in the picker's tabs, smallest first. */
  order: number;
  emojiCount: number;
  /** The first emoji's image, for the set's tab; null while the set is empty. */
  cover: string | null;
  /** Changes whenever the set, its name or its emojis change: the client cache compares it. */
  updatedAt: string;
  /** Whether the caller may rename, reorder, fill or delete the set. */
  canManage: boolean;
}

export interface Emoji {
  id: number;
  name: string;
  /** Public URL of the stored image (IMAGE_BED_URL + key); shown through /img at 36×36 webp. */
  src: string;
  emojiSetId: number;
  order: number;
}

/** GET /emoji/emoji-set: one set and its emojis in order. */
export interface EmojiSetWithEmojis {
  emojiSet: EmojiSetSummary;
  emojis: Emoji[];
}

/** GET /emoji/ by set name and emoji name: one emoji's source. */
export interface EmojiSource extends Emoji {
  /** `{set name}/{emoji name}` as written in text, with the set's current name (also when asked by an earlier one). */
  code: string;
  setUpdatedAt: string;
}
