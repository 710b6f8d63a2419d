import { z } from 'zod';
import { as, endpoint } from '../contract.ts';
import { decimalId } from '../input-rules.ts';
import {
  addEmojisBodySchema,
  createEmojiSetBodySchema,
  deleteEmojiBodySchema,
  emojiSetQuerySchema,
  emojiSourceQuerySchema,
  updateEmojiSetBodySchema,
  type EmojiSetSummary,
  type EmojiSetWithEmojis,
  type EmojiSource,
} from './emoji.ts';

const setParams = z.object({ id: decimalId('validation.label.emojiSet') });

/**
 * Emoji sets and emojis (spec §7 Emoji). Members read the sets (the picker); one emoji's source is public
 * (text shows emojis to visitors too); the creator group manages sets: a creator the sets they created,
 * editors and above every set.
 */
export const emojiContract = {
  listSets: endpoint({
    method: 'GET',
    path: '/emoji/emoji-set/list',
    response: as<EmojiSetSummary[]>(),
    auth: 'required',
    summary: 'Every emoji set in picker order, with its emoji count, cover and whether the caller may manage it',
  }),
  getSet: endpoint({
    method: 'GET',
    path: '/emoji/emoji-set',
    query: emojiSetQuerySchema,
    response: as<EmojiSetWithEmojis>(),
    auth: 'required',
    summary: 'One set and its emojis in order, by `emojiSetId` or by `emojiSetName` (current or earlier name)',
  }),
  getEmoji: endpoint({
    method: 'GET',
    path: '/emoji/',
    query: emojiSourceQuerySchema,
    response: as<EmojiSource>(),
    summary: 'One emoji by `emojiSetName` and `emojiName` (the two parts of its code), with its image `src`',
  }),
  createSet: endpoint({
    method: 'POST',
    path: '/emoji/emoji-set',
    body: createEmojiSetBodySchema,
    response: as<EmojiSetSummary>(),
    auth: 'required',
    summary: 'Creates an empty set, last in order (creator group); names are unique, earlier names included',
  }),
  addEmojis: endpoint({
    method: 'POST',
    path: '/emoji/emoji-set/emojis',
    body: addEmojisBodySchema,
    response: as<EmojiSetWithEmojis>(),
    auth: 'required',
    summary: 'Adds up to 50 emojis at the end of a set, all or none; each `src` an image uploaded for the set',
  }),
  deleteSet: endpoint({
    method: 'DELETE',
    path: '/emoji/emoji-set/:id',
    params: setParams,
    response: as<{ deleted: true }>(),
    auth: 'required',
    summary: 'Deletes a set with its emojis and their images; its names become free',
  }),
  deleteEmoji: endpoint({
    method: 'DELETE',
    path: '/emoji/:id',
    params: z.object({ id: decimalId('validation.label.emoji') }),
    body: deleteEmojiBodySchema,
    response: as<EmojiSetWithEmojis>(),
    auth: 'required',
    summary: 'Deletes one emoji of the set `emojiSetId` (and its image); answers the set as it is now',
  }),
  updateSet: endpoint({
    method: 'PUT',
    path: '/emoji/emoji-set/:id',
    params: setParams,
    body: updateEmojiSetBodySchema,
    response: as<EmojiSetWithEmojis>(),
    auth: 'required',
    summary: 'Renames a set (the old name keeps working), moves it among the sets and/or reorders its emojis',
  }),
} as const;
