import { sql } from 'kysely';
import { CHAT_PIN_LIMIT, type ContactEntry, type ContactList } from '../../../shared/chat/chat-model.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { dialectOf, type Db } from '../../db/database.ts';
import { pageInfo, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import { memberByUserId } from './chat.messages.ts';

/** A member's conversations as their contact list shows them: pins and nicknames. */

/** The viewer's contact rows with what a contact entry shows. */
function contactRows(db: Db, viewerAccountId: string) {
  return db
    .selectFrom('chat_contact as c')
    .where('c.user_id', '=', viewerAccountId)
    .innerJoin('users as u', 'u.id', 'c.contact_id')
    .leftJoin('private_message as m', 'm.id', 'c.last_message_id')
    .leftJoin('chat_block as b', (join) =>
      join.onRef('b.blocked_id', '=', 'c.contact_id').on('b.user_id', '=', viewerAccountId),
    )
    .select([
      'u.user_id',
      'u.name',
      'u.avatar',
      'c.unread_count',
      'c.nickname',
      'c.pinned_order',
      'c.last_message_at',
      'm.id as message_id',
      'm.content',
      'm.sent_at',
      'b.blocked_id',
    ]);
}

type ContactRow = Awaited<ReturnType<ReturnType<typeof contactRows>['executeTakeFirstOrThrow']>>;

const toContact = (row: ContactRow): ContactEntry => ({
  contactUser: { _id: row.user_id, name: row.name, avatar: row.avatar },
  unreadCount: Number(row.unread_count),
  lastMessage:
    row.message_id === null || row.content === null || row.sent_at === null
      ? null
      : { _id: String(row.message_id), content: row.content, sentAt: row.sent_at },
  nickname: row.nickname,
  isPinned: Number(row.pinned_order) > 0,
  pinnedOrder: Number(row.pinned_order),
  lastMessageTime: row.last_message_at,
  isBlocked: row.blocked_id !== null,
});

/** The viewer's conversations: pinned first (latest pinned first), then the latest message first. */
export async function listContacts(db: Db, viewerAccountId: string, request: PageRequest): Promise<ContactList> {
  const [rows, counted] = await Promise.all([
    contactRows(db, viewerAccountId)
      .orderBy('c.pinned_order', 'desc')
      .orderBy('c.last_message_id', 'desc')
      .orderBy('c.contact_id')
      .limit(request.limit)
      .offset((request.page - 1) * request.limit)
      .execute(),
    db
      .selectFrom('chat_contact')
      .where('user_id', '=', viewerAccountId)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { contacts: rows.map(toContact), pagination: pageInfo(request, Number(counted.total)) };
}

/** A member's conversation partners' public ids, the latest conversations first (for presence). */
export async function contactUserIds(db: Db, accountId: string, max: number): Promise<number[]> {
  const rows = await db
    .selectFrom('chat_contact as c')
    .innerJoin('users as u', 'u.id', 'c.contact_id')
    .select('u.user_id')
    .where('c.user_id', '=', accountId)
    .orderBy('c.last_message_id', 'desc')
    .limit(max)
    .execute();
  return rows.map((row) => row.user_id);
}

const noConversation = () => new HttpError(404, 'NOT_FOUND', 'server.chat.noConversation');

/** One of the viewer's conversations as the contact list shows it; 404 when they never exchanged a message. */
async function contactEntry(db: Db, viewerAccountId: string, contactAccountId: string): Promise<ContactEntry> {
  const row = await contactRows(db, viewerAccountId).where('c.contact_id', '=', contactAccountId).executeTakeFirst();
  if (!row) throw noConversation();
  return toContact(row);
}

/**
 * Pins a conversation (after the viewer's other pins: the latest pinned comes first) or unpins it.
 * Pinning one already pinned keeps its place. At most CHAT_PIN_LIMIT pinned (409 CHAT_PIN_LIMIT); a
 * member's pins are taken one at a time (the member's row is locked on PostgreSQL; SQLite writes one
 * transaction at a time), so two at once get different places and cannot pass the limit together.
 */
export async function setPinned(
  db: Db,
  viewerAccountId: string,
  contactUserId: number,
  pinned: boolean,
): Promise<ContactEntry> {
  const other = await memberByUserId(db, contactUserId);
  await db.transaction().execute(async (trx) => {
    if (dialectOf(trx) === 'postgres')
      await trx.selectFrom('users').select('id').where('id', '=', viewerAccountId).forUpdate().execute();
    const mine = trx.selectFrom('chat_contact').where('user_id', '=', viewerAccountId);
    const row = await mine.select('pinned_order').where('contact_id', '=', other.id).executeTakeFirst();
    if (!row) throw noConversation();
    const isPinned = Number(row.pinned_order) > 0;
    if (pinned === isPinned) return;
    if (pinned) {
      const counted = await mine
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('pinned_order', '>', 0)
        .executeTakeFirstOrThrow();
      if (Number(counted.n) >= CHAT_PIN_LIMIT)
        throw new HttpError(409, 'CHAT_PIN_LIMIT', messageRef('server.chat.pinLimit', { max: CHAT_PIN_LIMIT }));
    }
    await trx
      .updateTable('chat_contact')
      .set({
        pinned_order: pinned
          ? sql<number>`(select coalesce(max(p.pinned_order), 0) + ${sql.lit(1)} from chat_contact as p where p.user_id = ${viewerAccountId})`
          : 0,
      })
      .where('user_id', '=', viewerAccountId)
      .where('contact_id', '=', other.id)
      .execute();
  });
  return contactEntry(db, viewerAccountId, other.id);
}

/** Sets the viewer's own name for a conversation partner (already checked and trimmed; empty clears it). */
export async function setNickname(
  db: Db,
  viewerAccountId: string,
  contactUserId: number,
  nickname: string,
): Promise<ContactEntry> {
  const other = await memberByUserId(db, contactUserId);
  const updated = await db
    .updateTable('chat_contact')
    .set({ nickname })
    .where('user_id', '=', viewerAccountId)
    .where('contact_id', '=', other.id)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw noConversation();
  return contactEntry(db, viewerAccountId, other.id);
}
