import { z } from 'zod';
import { IMAGE_URL_MAX } from '../auth-model.ts';
import { emojiPart } from '../comment-markers.ts';
import { messageRef, type MessageKey, type MessageRef } from '../i18n/index.ts';
import { bodyId, bodyInt, decimalId, safeText, unsafeTextReason } from '../input-rules.ts';
import { showsNothing } from '../visible-text.ts';
import { EMOJI_ADD_BATCH_MAX, EMOJI_NAME_MAX, EMOJI_SET_MAX_EMOJIS, EMOJI_SET_ORDER_MAX } from './emoji-model.ts';

/**
 * The request schemas of the emoji calls (spec §7 Emoji); values and answer shapes are in emoji-model.ts.
 * Names of sets and emojis are what `[emoji:{set}/{name}]` can carry, in Unicode NFC, so a name typed
 * with composed or decomposed accents is the same name. Names compare exactly (case-sensitive), as the
 * marker in a text is looked up as written.
 */
export * from './emoji-model.ts';

/**
 * A set or emoji name: trimmed and NFC-normalised, 1–EMOJI_NAME_MAX characters of letters, marks,
 * digits, '_', '.' and '-' (the marker grammar of comment-markers.ts), not only dots.
 */
export function emojiNameField(label: MessageKey) {
  return z.string({ error: messageRef('validation.text.notText', { label }) }).transform((raw, ctx) => {
    const value = raw.trim().normalize('NFC');
    const refuse = (message: MessageRef) => {
      ctx.addIssue({ code: 'custom', message, input: raw });
      return z.NEVER;
    };
    if (value.length === 0) return refuse(messageRef('validation.text.required', { label }));
    if (showsNothing(value)) return refuse(messageRef('validation.text.invisible', { label }));
    const unsafe = unsafeTextReason(value, 'line');
    if (unsafe) return refuse(messageRef(unsafe, { label }));
    if (value.length > EMOJI_NAME_MAX)
      return refuse(messageRef('validation.text.tooLong', { label, max: EMOJI_NAME_MAX }));
    if (!emojiPart(value)) return refuse(messageRef('validation.emoji.nameCharacters', { label }));
    return value;
  });
}

const setName = emojiNameField('validation.label.emojiSetName');
const emojiName = emojiNameField('validation.label.emojiName');
const setId = bodyId('validation.label.emojiSet');

/** A query value that may be left out or sent empty (`?emojiSetId=&emojiSetName=…`). */
function optionalInQuery<S extends z.ZodType<unknown, string>>(schema: S) {
  return z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .pipe(schema.optional());
}

/** GET /api/emoji/emoji-set: a set by id or by name (an id wins when both are given). */
export const emojiSetQuerySchema = z
  .object({
    emojiSetId: optionalInQuery(decimalId('validation.label.emojiSet')),
    emojiSetName: optionalInQuery(setName),
  })
  .refine((query) => query.emojiSetId !== undefined || query.emojiSetName !== undefined, {
    error: 'validation.emoji.setRequired',
  });

/** GET /api/emoji/: one emoji by its code's two parts. */
export const emojiSourceQuerySchema = z.object({ emojiSetName: setName, emojiName });

/** POST /api/emoji/emoji-set body. */
export const createEmojiSetBodySchema = z.object({ name: setName });

/** One emoji to add: its name and the public address of an image uploaded for the set. */
export const newEmojiSchema = z.object(
  {
    name: emojiName,
    src: safeText({ max: IMAGE_URL_MAX, label: 'validation.label.imageUrl', min: 1 }),
  },
  { error: 'validation.emoji.item' },
);

/** POST /api/emoji/emoji-set/emojis body. */
export const addEmojisBodySchema = z.object({
  emojiSetId: setId,
  emojis: z
    .array(newEmojiSchema, { error: 'validation.emoji.list' })
    .min(1, { error: 'validation.emoji.listEmpty' })
    .max(EMOJI_ADD_BATCH_MAX, { error: messageRef('validation.emoji.batchTooLarge', { max: EMOJI_ADD_BATCH_MAX }) }),
});
export type AddEmojisBody = z.infer<typeof addEmojisBodySchema>;

/** DELETE /api/emoji/{id} body: the set the emoji is in. */
export const deleteEmojiBodySchema = z.object({ emojiSetId: setId });

/**
 * PUT /api/emoji/emoji-set/{id} body: any of a new name, a new position among the sets (0 is first;
 * past the end means last) and the set's emoji ids in their new order (all of them, each once).
 */
export const updateEmojiSetBodySchema = z.object({
  updatedEmojiSet: z
    .object(
      {
        name: setName.optional(),
        order: bodyInt({ min: 0, max: EMOJI_SET_ORDER_MAX, label: 'validation.label.emojiSetOrder' }).optional(),
        emojiIds: z
          .array(bodyId('validation.label.emoji'), { error: 'validation.emoji.idList' })
          .max(EMOJI_SET_MAX_EMOJIS, {
            error: messageRef('validation.emoji.idListTooLong', { max: EMOJI_SET_MAX_EMOJIS }),
          })
          .optional(),
      },
      { error: 'validation.emoji.updateRequired' },
    )
    .refine((set) => set.name !== undefined || set.order !== undefined || set.emojiIds !== undefined, {
      error: 'validation.emoji.updateRequired',
    }),
});
export type UpdateEmojiSetBody = z.infer<typeof updateEmojiSetBodySchema>;
