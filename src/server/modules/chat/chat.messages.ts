import { sql } from 'kysely';
import type { ChatHistory, ChatServerFrame, PrivateMessage } from '../../../shared/chat/chat-model.ts';
import type { Db } from '../../db/database.ts';
import { pageInfo, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import type { PrivateMessageTable } from './chat.tables.ts';

/**
 * Private messages and blocks (issue 16): the members of a conversation, its history, read and
 * delivered marks. Sending is in chat.send.ts, contacts in chat.contacts.ts.
 */

/** The conversation of two accounts: their ids, smaller first. */
export const pairKey = (a: string, b: string): string => (a < b ? `${a}:${b}` : `${b}:${a}`);

export interface Member {
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

/** A member by account id; 404 when there is none. */
export async function memberById(db: Db, id: string): Promise<Member> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'user_id', 'name', 'avatar', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
  return row;
}

/** A stored message as the client sees it, its members named by their public ids. */
export function toMessage(row: PrivateMessageTable, userIds: ReadonlyMap<string, number>): PrivateMessage {
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
