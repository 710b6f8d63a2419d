import { describe, expect, it } from 'vitest';
import { createAvailability } from './availability.ts';

describe('database availability', () => {
  it('turns away on a failed connection and back on the next one, saying each change once', () => {
    let now = 1000;
    const said: string[] = [];
    const logger = { info: (_: object, m: string) => said.push(m), error: (_: object, m: string) => said.push(m) };
    const availability = createAvailability(logger, () => now);
    expect(availability.reachable).toBe(true);
    availability.reached();
    availability.failed(new Error('connect ECONNREFUSED'));
    now = 2000;
    availability.failed(new Error('connect ECONNREFUSED'));
    expect(availability).toMatchObject({ reachable: false, awaySince: 1000 });
    now = 16_000;
    availability.reached();
    availability.reached();
    expect(availability).toMatchObject({ reachable: true, awaySince: null });
    expect(said).toEqual([
      'database unreachable: requests that need it answer 503 until it is back',
      'database reachable again',
    ]);
  });
});
