import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { USER_GROUPS, emailField, nameField, passwordField } from '../../shared/auth.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { createUser } from '../modules/users/users.service.ts';
import { runCli, withApp } from './run-cli.ts';

// npm run user:create -- --name 管理员 --email admin@example.org --group superAdmin
// The password is asked for (hidden) on a terminal, or read from standard input when piped.

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let input = '';
    for await (const chunk of process.stdin) input += String(chunk);
    return input.replace(/\r?\n$/, '');
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const muted = rl as unknown as { _writeToOutput: (s: string) => void };
  process.stdout.write('Password: ');
  muted._writeToOutput = () => undefined;
  const answer = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stdout.write('\n');
  return answer;
}

await runCli(async () => {
  const { values } = parseArgs({
    options: { name: { type: 'string' }, email: { type: 'string' }, group: { type: 'string', default: 'user' } },
  });
  const name = nameField.parse(values.name ?? '');
  const email = emailField.parse(values.email ?? '');
  const group = USER_GROUPS.find((g) => g === values.group);
  if (!group) throw new Error(`--group must be one of ${USER_GROUPS.join(', ')}`);
  const password = passwordField.parse(await readPassword());

  await withApp(async ({ db }) => {
    const user = await createUser(db, { name, email, group, passwordHash: await hashPassword(password) });
    console.log(`Created ${group} "${user.name}" <${user.email}> (userId ${user.user_id}).`);
  });
});
