import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '../../src/shared/api.ts';
import { allEndpoints } from '../../src/shared/contracts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/** `METHOD /api/path` of each route Hono mounted; `use()` middleware is registered as method ALL. */
function mountedRoutes(app: TestApp): Set<string> {
  return new Set(app.api.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`));
}

const declared = () => allEndpoints().map(({ endpoint: e }) => `${e.method} ${API_BASE}${e.path}`);

describe('the contracts and the mounted API', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());

  it('mounts every route from a contract: none is missing from the contracts', () => {
    const contracts = new Set(declared());
    const undeclared = [...mountedRoutes(app)].filter((route) => !contracts.has(route));
    expect(undeclared, 'routes mounted in createApi() but declared in no src/shared/<module>/*.contract.ts').toEqual(
      [],
    );
  });

  it('mounts every contract endpoint', () => {
    const mounted = mountedRoutes(app);
    const unmounted = declared().filter((route) => !mounted.has(route));
    expect(unmounted, 'contract endpoints that createApi() does not mount').toEqual([]);
  });

  it('declares each method and path once', () => {
    const routes = declared();
    expect(routes.filter((route, i) => routes.indexOf(route) !== i)).toEqual([]);
  });

  it('answers a mounted contract endpoint through its guard (a login-only one is 401 without a token)', async () => {
    for (const { endpoint } of allEndpoints().filter(
      ({ endpoint: e }) => e.auth === 'required' && e.method === 'GET',
    )) {
      const path = endpoint.path.replace(/:\w+/g, '1');
      const res = await app.request(`${API_BASE}${path}`);
      expect(res.status, `${endpoint.method} ${endpoint.path}`).toBe(401);
    }
  });
});
