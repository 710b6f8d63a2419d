import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * Puts `count` private messages between two members straight into the test server's SQLite database
 * (DATA_DIR/hikari.db, shared with the server through `E2E_DATA_DIR`), as `sendMessage` stores them:
 * ids reserved from the `private_message_id` counter, both members' contact rows pointing at the last
 * one. They alternate senders, one a minute up to now, and are all delivered and read. Returns the
 * first and last ids.
 */
export function seedConversation(userA: number, userB: number, count: number): { first: number; last: number } {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the tests through playwright.config.ts');
  const db = new DatabaseSync(path.join(dataDir, 'hikari.db'));
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA busy_timeout = 5000');
    const accountOf = (userId: number) => {
      const row = db.prepare('SELECT id FROM users WHERE user_id = ?').get(BigInt(userId)) as
        { id: string } | undefined;
      if (!row) throw new Error(`no member with user id ${userId}`);
      return row.id;
    };
    const a = accountOf(userA);
    const b = accountOf(userB);
    const pairKey = a < b ? `${a}:${b}` : `${b}:${a}`;
    db.exec('BEGIN IMMEDIATE');
    try {
      const { value } = db
        .prepare("UPDATE counter SET value = value + ? WHERE name = 'private_message_id' RETURNING value")
        .get(BigInt(count)) as { value: number | bigint };
      const last = Number(value);
      const first = last - count + 1;
      const start = Date.now() - count * 60_000;
      const insert = db.prepare(
        `INSERT INTO private_message (id, pair_key, sender_id, receiver_id, content, client_id, sent_at, delivered_at, read_at)
         VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
      );
      let lastAt = '';
      for (let i = 0; i < count; i += 1) {
        const [sender, receiver] = i % 2 === 0 ? [a, b] : [b, a];
        lastAt = new Date(start + i * 60_000).toISOString();
        insert.run(BigInt(first + i), pairKey, sender, receiver, `长对话第 ${i + 1} 条`, lastAt, lastAt, lastAt);
      }
      const contact = db.prepare(
        `INSERT INTO chat_contact (user_id, contact_id, unread_count, last_message_id, last_message_at, created_at)
         VALUES (?, ?, 0, ?, ?, ?)
         ON CONFLICT (user_id, contact_id) DO UPDATE SET last_message_id = excluded.last_message_id,
           last_message_at = excluded.last_message_at`,
      );
      contact.run(a, b, BigInt(last), lastAt, lastAt);
      contact.run(b, a, BigInt(last), lastAt, lastAt);
      db.exec('COMMIT');
      return { first, last };
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  } finally {
    db.close();
  }
}
