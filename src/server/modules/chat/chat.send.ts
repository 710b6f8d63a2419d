import { sql } from 'kysely';
import { dialectOf, type Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/db-errors.ts';
import { nextId } from '../../db/ids.ts';
import { HttpError } from '../../platform/errors.ts';
import { hasBlocked, memberById, memberByUserId, pairKey, toMessage, type Member } from './chat.messages.ts';
import type { PrivateMessageTable } from './chat.tables.ts';
import type { PrivateMessage } from '../../../shared/chat/chat-model.ts';

/**
 * Sending a private message: it is written with both members' contact rows in one transaction before
 * anyone is told it was sent; a retried send with the same client id finds the stored message instead
 * of writing a second one.
 */

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

/**
 * The message the sender already stored under `clientId` when this send is a retry of it (the same
 * receiver and content), or null when the clientId is new. Any other send reusing it is refused (409
 * CHAT_CLIENT_ID_TAKEN): answering it with the earlier message would acknowledge a message never
 * stored and deliver the earlier one again, maybe to another member.
 */
async function earlierSend(db: Db, sender: Member, receiver: Member, clientId: string, content: string) {
  const row = await db
    .selectFrom('private_message')
    .selectAll()
    .where('sender_id', '=', sender.id)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return null;
  if (row.receiver_id !== receiver.id || row.content !== content)
    throw new HttpError(409, 'CHAT_CLIENT_ID_TAKEN', 'server.chat.clientIdTaken');
  const ids = new Map([
    [sender.id, sender.user_id],
    [receiver.id, receiver.user_id],
  ]);
  return { message: toMessage(row, ids), receiverAccountId: receiver.id, duplicate: true } satisfies Sent;
}

/**
 * Stores a message from `senderAccountId` and updates both contact rows, in one transaction. Refused:
 * oneself (400 CHAT_SELF), an unknown member (404), a banned one (403 USER_BANNED), one who blocked
 * the sender (403 CHAT_BLOCKED), a clientId the sender used for another message (409
 * CHAT_CLIENT_ID_TAKEN). A retry (same clientId, receiver and content) answers the stored message.
 */
export async function sendMessage(db: Db, senderAccountId: string, input: SendInput, now = new Date()): Promise<Sent> {
  const sender = await memberById(db, senderAccountId);
  const receiver = await memberByUserId(db, input.receiverId);
  if (receiver.id === sender.id) throw new HttpError(400, 'CHAT_SELF', 'server.chat.self');
  if (receiver.status === 'banned') throw new HttpError(403, 'USER_BANNED', 'server.chat.receiverBanned');
  if (await hasBlocked(db, receiver.id, sender.id)) throw new HttpError(403, 'CHAT_BLOCKED', 'server.chat.blocked');
  const clientId = input.clientId ?? null;
  if (clientId) {
    const earlier = await earlierSend(db, sender, receiver, clientId, input.content);
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
    // Two sends with one clientId at once: the other one stored first; this one is its retry or refused.
    if (clientId && isUniqueViolation(error)) {
      const earlier = await earlierSend(db, sender, receiver, clientId, input.content);
      if (earlier) return earlier;
    }
    throw error;
  }
}
