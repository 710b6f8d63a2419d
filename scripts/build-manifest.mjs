// @ts-check
import { mkdir, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** A build id that sorts by time and is unique per build. */
export function createBuildId() {
  return `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/**
 * Writes builds/latest.json (polled by open tabs to notice a new deploy) and builds/meta/{id}.json
 * (this build's manifest) into the client output.
 * @param {string} buildId
 * @returns {import('astro').AstroIntegration}
 */
export function buildManifest(buildId) {
  return {
    name: 'hikari:build-manifest',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        // In server output `dir` is the client folder.
        const clientDir = fileURLToPath(dir);
        const timestamp = Date.now();
        const meta = { id: buildId, buildId, timestamp };
        await mkdir(path.join(clientDir, 'builds/meta'), { recursive: true });
        await writeFile(
          path.join(clientDir, 'builds/latest.json'),
          JSON.stringify({ id: buildId, buildId, timestamp }),
        );
        await writeFile(path.join(clientDir, `builds/meta/${buildId}.json`), JSON.stringify(meta));
        logger.info(`build ${buildId} manifest written`);
      },
    },
  };
}
