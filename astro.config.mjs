// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import mdx from '@astrojs/mdx';
import tailwindcss from '@tailwindcss/vite';
import { buildManifest, createBuildId } from './scripts/build-manifest.mjs';
import { clientChunks } from './scripts/client-chunks.mjs';

const buildId = process.env.BUILD_ID || createBuildId();

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true }),
  integrations: [react({ experimentalDisableStreaming: true }), mdx(), buildManifest(buildId)],
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  prefetch: false,
  devToolbar: { enabled: false },
  vite: {
    plugins: [tailwindcss(), clientChunks()],
    define: { __BUILD_ID__: JSON.stringify(buildId) },
    build: {
      rolldownOptions: {
        // Astro's MDX pipeline marks every page module with "use astro:head-inject"; the bundler's notice
        // that it drops the directive is expected and harmless, and it was a wall of warnings per build.
        onwarn(warning, warn) {
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('astro:head-inject')) return;
          warn(warning);
        },
      },
    },
  },
});
