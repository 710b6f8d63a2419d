import { sql } from 'kysely';
import {
  CHAT_PIN_LIMIT,
  type ChatHistory,
  type ChatServerFrame,
  type ContactEntry,
  type ContactList,
  type PrivateMessage,
} from '../../../shared/chat/chat-model.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { dialectOf, type Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/db-errors.ts';
import { nextId } from '../../db/ids.ts';
import { pageInfo, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import type { PrivateMessageTable } from './chat.tables.ts';

/**
 * Private messages, contacts and blocks (issue 16). A message is written with both members' contact
 * rows in one transaction before anyone is told it was sent; a retried send with the same client id
 * finds the stored message instead of writing a second one.
 */

/** The conversation of two accounts: their ids, smaller first. */
export const pairKey = (a: string, b: string): string => (a < b ? `${a}:${b}` : `${b}:${a}`);

interface Member {
  id: string;
  user_id: number;
  name: string;
  avatar: string;
  status: string;
}

/** A member by the public numeric userId; 404 when there is none. */
export async function memberByUserId(db: Db, userId: number): Promise<Member> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'user_id', 'name', 'avatar', 'status'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
  return row;
}

async function memberById(db: Db, id: string): Promise<Member> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'user_id', 'name', 'avatar', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
  return row;
}

function toMessage(row: PrivateMessageTable, userIds: ReadonlyMap<string, number>): PrivateMessage {
  return {
    _id: String(row.id),
    senderId: userIds.get(row.sender_id) ?? 0,
    receiverId: userIds.get(row.receiver_id) ?? 0,
    content: row.content,
    sentAt: row.sent_at,
    isRead: row.read_at !== null,
    readAt: row.read_at,
    isDelivered: row.delivered_at !== null,
    clientId: row.client_id,
  };
}

/** Whether `owner` blocked `other`. */
export async function hasBlocked(db: Db, owner: string, other: string): Promise<boolean> {
  const row = await db
    .selectFrom('chat_block')
    .select('blocked_id')
    .where('user_id', '=', owner)
    .where('blocked_id', '=', other)
    .executeTakeFirst();
  return row !== undefined;
}

export interface SendInput {
  /** The receiver's public numeric userId. */
  receiverId: number;
  /** Already checked: trimmed, not empty, at most 500 characters, no control characters. */
  content: string;
  clientId?: string;
}

export interface Sent {
  message: PrivateMessage;
  /** The receiver's account id (for delivery). */
  receiverAccountId: string;
  /** A retry of a message already stored: nothing new was written. */
  duplicate: boolean;
}

async function storedByClientId(db: Db, sender: Member, receiver: Member, clientId: string): Promise<Sent | null> {
  const row = await db
    .selectFrom('private_message')
    .selectAll()
    .where('sender_id', '=', sender.id)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return null;
  const ids = new Map([
    [sender.id, sender.user_id],
    [receiver.id, receiver.user_id],
  ]);
  return { message: toMessage(row, ids), receiverAccountId: receiver.id, duplicate: true };
}

/**
 * Stores a message from `senderAccountId` and updates both contact rows, in one transaction. Refused:
 * oneself (400 CHAT_SELF), an unknown member (404), a banned one (403 USER_BANNED), one who blocked
 * the sender (403 CHAT_BLOCKED).
 */
export async function sendMessage(db: Db, senderAccountId: string, input: SendInput, now = new Date()): Promise<Sent> {
  const sender = await memberById(db, senderAccountId);
  const receiver = await memberByUserId(db, input.receiverId);
  if (receiver.id === sender.id) throw new HttpError(400, 'CHAT_SELF', 'server.chat.self');
  if (receiver.status === 'banned') throw new HttpError(403, 'USER_BANNED', 'server.chat.receiverBanned');
  if (await hasBlocked(db, receiver.id, sender.id)) throw new HttpError(403, 'CHAT_BLOCKED', 'server.chat.blocked');
  const clientId = input.clientId ?? null;
  if (clientId) {
    const earlier = await storedByClientId(db, sender, receiver, clientId);
    if (earlier) return earlier;
  }
  const at = now.toISOString();
  // On PostgreSQL the id is taken before the transaction: the counter row would otherwise stay locked
  // for the whole send, and every send of every process would queue behind it (bench:chat: p99 1.4 s →
  // 14 ms with two processes on a busy machine). A failed send leaves a gap; order is by id all the same.
  // SQLite has one writer at a time anyway, and a separate commit would cost it one more disk sync.
  const early = dialectOf(db) === 'postgres' ? await nextId(db, 'private_message_id') : null;
  try {
    const row = await db.transaction().execute(async (trx) => {
      const id = early ?? (await nextId(trx, 'private_message_id'));
      const values: PrivateMessageTable = {
        id,
        pair_key: pairKey(sender.id, receiver.id),
        sender_id: sender.id,
        receiver_id: receiver.id,
        content: input.content,
        client_id: clientId,
        sent_at: at,
        delivered_at: null,
        read_at: null,
      };
      await trx.insertInto('private_message').values(values).execute();
      const newer = sql<boolean>`${sql.ref('chat_contact.last_message_id')} is null or ${sql.ref('chat_contact.last_message_id')} < ${sql.lit(id)}`;
      const contact = (owner: string, other: string, unread: number) =>
        trx
          .insertInto('chat_contact')
          .values({
            user_id: owner,
            contact_id: other,
            unread_count: unread,
            last_message_id: id,
            last_message_at: at,
            created_at: at,
          })
          .onConflict((oc) =>
            // Ids are taken before commits, so two sends of one conversation may commit out of order: the
            // contact keeps the newer message.
            oc.columns(['user_id', 'contact_id']).doUpdateSet({
              last_message_id: sql<number>`case when ${newer} then ${sql.lit(id)} else ${sql.ref('chat_contact.last_message_id')} end`,
              last_message_at: sql<string>`case when ${newer} then ${at} else ${sql.ref('chat_contact.last_message_at')} end`,
              unread_count: sql<number>`${sql.ref('chat_contact.unread_count')} + ${sql.lit(unread)}`,
            }),
          )
          .execute();
      await contact(sender.id, receiver.id, 0);
      await contact(receiver.id, sender.id, 1);
      return values;
    });
    const ids = new Map([
      [sender.id, sender.user_id],
      [receiver.id, receiver.user_id],
    ]);
    return { message: toMessage(row, ids), receiverAccountId: receiver.id, duplicate: false };
  } catch (error) {
    // The same retry twice at once: the other one stored it.
    if (clientId && isUniqueViolation(error)) {
      const earlier = await storedByClientId(db, sender, receiver, clientId);
      if (earlier) return earlier;
    }
    throw error;
  }
}

/**
 * A page of the conversation of the viewer with a member, oldest first. With `before` (a message
 * `_id`), the `limit` messages before it: pages stay put while new messages arrive. Without it, page
 * `page` counted from the newest.
 */
export async function chatHistory(
  db: Db,
  viewerAccountId: string,
  partnerUserId: number,
  request: PageRequest & { before?: number },
): Promise<ChatHistory> {
  const [viewer, partner] = await Promise.all([memberById(db, viewerAccountId), memberByUserId(db, partnerUserId)]);
  if (viewer.id === partner.id) throw new HttpError(400, 'CHAT_SELF', 'server.chat.self');
  const conversation = db.selectFrom('private_message').where('pair_key', '=', pairKey(viewer.id, partner.id));
  let rows = conversation
    .selectAll()
    .orderBy('id', 'desc')
    .limit(request.limit + 1);
  rows =
    request.before === undefined
      ? rows.offset((request.page - 1) * request.limit)
      : rows.where('id', '<', request.before);
  const [found, counted] = await Promise.all([
    rows.execute(),
    conversation.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const ids = new Map([
    [viewer.id, viewer.user_id],
    [partner.id, partner.user_id],
  ]);
  return {
    messages: found
      .slice(0, request.limit)
      .reverse()
      .map((row) => toMessage(row, ids)),
    pagination: pageInfo(request, Number(counted.total)),
    hasMore: found.length > request.limit,
  };
}

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

/** Who is told that a conversation was read: the sender of the messages read, and the reader. */
export interface ReadReceipt {
  senderAccountId: string;
  readerAccountId: string;
  frame: Extract<ChatServerFrame, { type: 'read' }>;
}

/**
 * Marks the partner's messages to the viewer read and clears the conversation's unread count. When
 * some were marked, `receipt` names the greatest `_id` marked, for the `read` frame.
 */
export async function clearUnread(
  db: Db,
  viewerAccountId: string,
  contactUserId: number,
  now = new Date(),
): Promise<{ cleared: number; receipt: ReadReceipt | null }> {
  const [viewer, partner] = await Promise.all([memberById(db, viewerAccountId), memberByUserId(db, contactUserId)]);
  const readAt = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const unread = trx
      .selectFrom('private_message')
      .where('receiver_id', '=', viewer.id)
      .where('sender_id', '=', partner.id)
      .where('read_at', 'is', null);
    const newest = await unread.select((eb) => eb.fn.max('id').as('upTo')).executeTakeFirst();
    const upTo = newest?.upTo === null || newest?.upTo === undefined ? null : Number(newest.upTo);
    let cleared = 0;
    if (upTo !== null) {
      // Only up to the newest one seen: a message arriving meanwhile stays unread, and `upTo` is exact.
      const read = await trx
        .updateTable('private_message')
        .set({ read_at: readAt })
        .where('receiver_id', '=', viewer.id)
        .where('sender_id', '=', partner.id)
        .where('read_at', 'is', null)
        .where('id', '<=', upTo)
        .executeTakeFirst();
      cleared = Number(read.numUpdatedRows);
    }
    // Down by what was marked: a message committed meanwhile (after `upTo`) keeps its +1 on PostgreSQL,
    // where a send may commit between the two statements. Nothing unread at all: 0, whatever it held.
    const count = sql.ref('chat_contact.unread_count');
    await trx
      .updateTable('chat_contact')
      .set({
        unread_count:
          upTo === null
            ? 0
            : sql<number>`case when ${count} > ${sql.lit(cleared)} then ${count} - ${sql.lit(cleared)} else 0 end`,
      })
      .where('user_id', '=', viewer.id)
      .where('contact_id', '=', partner.id)
      .execute();
    return {
      cleared,
      receipt:
        cleared > 0 && upTo !== null
          ? {
              senderAccountId: partner.id,
              readerAccountId: viewer.id,
              frame: { type: 'read', readerId: viewer.user_id, senderId: partner.user_id, upTo: String(upTo), readAt },
            }
          : null,
    };
  });
}

/** Messages to a member now delivered: per sender, the ids that changed from undelivered. */
export interface DeliveredBatch {
  senderAccountId: string;
  ids: string[];
}

/** At most this many of a member's undelivered messages are marked when one of their sockets opens. */
export const DELIVER_ON_OPEN_MAX = 500;

/**
 * Marks the newest (at most DELIVER_ON_OPEN_MAX) messages to a member that no open socket received yet
 * as delivered, in one UPDATE … RETURNING, and answers them grouped by sender.
 */
export async function markDeliveredTo(db: Db, receiverAccountId: string, at: string): Promise<DeliveredBatch[]> {
  const rows = await db
    .updateTable('private_message')
    .set({ delivered_at: at })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('private_message')
        .select('id')
        .where('receiver_id', '=', receiverAccountId)
        .where('delivered_at', 'is', null)
        .orderBy('id', 'desc')
        .limit(DELIVER_ON_OPEN_MAX),
    )
    .where('delivered_at', 'is', null)
    .returning(['id', 'sender_id'])
    .execute();
  const bySender = new Map<string, number[]>();
  for (const row of rows) bySender.set(row.sender_id, [...(bySender.get(row.sender_id) ?? []), Number(row.id)]);
  return [...bySender].map(([senderAccountId, ids]) => ({
    senderAccountId,
    ids: ids.sort((a, b) => a - b).map(String),
  }));
}

/** Marks one message delivered; answers whether it was not already (only the first delivery counts). */
export async function markDelivered(db: Db, messageId: number, at: string): Promise<boolean> {
  const updated = await db
    .updateTable('private_message')
    .set({ delivered_at: at })
    .where('id', '=', messageId)
    .where('delivered_at', 'is', null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Blocks (or unblocks) a member: a blocked member's messages to the viewer are refused. */
export async function setBlocked(
  db: Db,
  viewerAccountId: string,
  userId: number,
  blocked: boolean,
  now = new Date(),
): Promise<{ isBlocked: boolean }> {
  const other = await memberByUserId(db, userId);
  if (other.id === viewerAccountId) throw new HttpError(400, 'CHAT_SELF', 'server.chat.blockSelf');
  if (blocked) {
    await db
      .insertInto('chat_block')
      .values({ user_id: viewerAccountId, blocked_id: other.id, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'blocked_id']).doNothing())
      .execute();
  } else {
    await db
      .deleteFrom('chat_block')
      .where('user_id', '=', viewerAccountId)
      .where('blocked_id', '=', other.id)
      .execute();
  }
  return { isBlocked: blocked };
}

/** Unread private messages across the member's conversations (the header bell adds them to its count). */
export async function chatUnreadTotal(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('chat_contact')
    .select((eb) => eb.fn.sum<number | string | null>('unread_count').as('n'))
    .where('user_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
