import { parseArgs } from 'node:util';
import { hashPassword } from '../modules/auth/password.ts';
import {
  GENERATED_EMAIL_DOMAIN,
  GENERATED_PASSWORD,
  generateCommunity,
} from '../modules/community/community.generate.ts';
import { runCli, withApp } from './run-cli.ts';

// npm run community:generate -- [--users 2000] [--posts 50000] [--articles 5000] [--topics 500]
//   [--seed 2026] [--now 2026-11-24T00:00:00Z]   (a synthetic community for load tests)
// The same seed and --now on the same starting database write the same community.

function whole(name: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

await runCli(async () => {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '2000' },
      posts: { type: 'string', default: '50000' },
      articles: { type: 'string', default: '5000' },
      topics: { type: 'string', default: '500' },
      seed: { type: 'string', default: '2026' },
      now: { type: 'string' },
    },
  });
  const options = {
    users: whole('users', values.users, 1, 200_000),
    posts: whole('posts', values.posts, 0, 2_000_000),
    articles: whole('articles', values.articles, 0, 500_000),
    topics: whole('topics', values.topics, 0, 20_000),
    seed: whole('seed', values.seed, 0, 2 ** 32 - 1),
  };
  const now = values.now === undefined ? new Date() : new Date(values.now);
  if (Number.isNaN(now.getTime())) throw new Error('--now must be a date and time, e.g. 2026-11-24T00:00:00Z');

  await withApp(async ({ db, dialect, storage }) => {
    const started = performance.now();
    const result = await generateCommunity(db, {
      ...options,
      now,
      // One hash for every generated member: argon2 is slow on purpose.
      passwordHash: await hashPassword(GENERATED_PASSWORD),
      imageUrl: (key) => storage.publicUrl(key),
      onProgress: (step, done, total) => process.stderr.write(`\r${step}: ${done}/${total}        `),
    });
    process.stderr.write('\n');
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const content = (c: { published: number; drafts: number; deleted: number }) =>
      `${c.published + c.drafts + c.deleted} (${c.published} published, ${c.drafts} drafts, ${c.deleted} deleted)`;
    const big = result.bigThread;
    console.log(
      [
        `Generated a community into ${dialect} in ${seconds} s (--seed ${options.seed} --now ${now.toISOString()}):`,
        `  members     ${result.users.count} (userId ${result.users.firstUserId}–${result.users.lastUserId}, e-mail u{userId}@${GENERATED_EMAIL_DOMAIN}, password "${GENERATED_PASSWORD}", e.g. ${result.users.sampleName})`,
        `  sections    ${result.sections.total} (${result.sections.created} new)`,
        `  topics      ${result.topics.total} (${result.topics.created} new)`,
        `  follows     ${result.follows}`,
        `  posts       ${content(result.posts)}`,
        `  articles    ${content(result.articles)}`,
        `  comments    ${result.comments}`,
        `  likes       ${result.likes}`,
        `  favourites  ${result.favorites}`,
        `  big thread  post ${big.postId} (/community/post/${big.postId}): ${big.comments} comments (${big.roots} roots, ${big.replies} replies), ${big.likes} likes, ${big.commentLikes} likes on its comments`,
      ].join('\n'),
    );
  });
});
