import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { findUserForRemoval, removeUser } from '../modules/users/users.removal.ts';
import { runCli, withApp } from './run-cli.ts';

// npm run user:remove -- <name | email | userId | _id> [--yes]
// Removes the account and everything tied to it, and recounts what it contributed to (ratings,
// favourites, link reports). On a terminal it asks first unless --yes is given.

await runCli(async () => {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { yes: { type: 'boolean' } } });
  const key = positionals[0];
  if (!key || positionals.length > 1) throw new Error('Usage: npm run user:remove -- <name|email|userId|_id> [--yes]');

  await withApp(async (ctx) => {
    const { db } = ctx;
    const found = await findUserForRemoval(db, key);
    if (!found) throw new Error(`No user "${key}" (looked for a name, email, userId or _id).`);
    const user = await db
      .selectFrom('users')
      .select(['id', 'user_id', 'name', 'email'])
      .where('id', '=', found.id)
      .executeTakeFirstOrThrow();
    if (process.stdin.isTTY && !values.yes) {
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      const answer = await rl.question(
        `Remove "${user.name}" <${user.email}> (userId ${user.user_id}) and everything tied to the account? [y/N] `,
      );
      rl.close();
      if (!/^y(es)?$/i.test(answer.trim())) {
        console.log('Nothing removed.');
        return;
      }
    }
    const removed = await removeUser(ctx, user.id);
    console.log(
      `Removed "${removed.name}" (userId ${removed.userId}): ${removed.ratings} ratings, ` +
        `${removed.favorites} favourites and ${removed.linkReports} link reports; their counts are recounted.`,
    );
  });
});
