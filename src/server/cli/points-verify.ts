import { verifyPoints } from '../modules/points/points.service.ts';
import { runCli, withApp } from './run-cli.ts';

// npm run points:verify
// Checks the HikariPoint ledger's invariant for every member (decision 025): the balance equals the
// sum of the member's ledger rows, numbered 1…n without gaps. Prints every member where it does not
// hold and exits 1; exits 0 when all agree.
await runCli(async () => {
  await withApp(async ({ db }) => {
    const { checked, mismatches } = await verifyPoints(db);
    if (mismatches.length === 0) {
      console.log(`Checked ${checked} members: every balance equals the sum of its ledger rows.`);
      return;
    }
    console.log('userId\tname\tbalance\tledger sum\tdifference\tlast row no.\trows');
    for (const m of mismatches) {
      console.log([m.userId, m.name, m.balance, m.ledgerSum, m.balance - m.ledgerSum, m.pointSeq, m.rows].join('\t'));
    }
    console.log(`Checked ${checked} members: ${mismatches.length} do not match their ledger.`);
    process.exitCode = 1;
  });
});
