// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import mdx from '@astrojs/mdx';
import tailwindcss from '@tailwindcss/vite';
import { buildManifest, createBuildId } from './scripts/build-manifest.mjs';

const buildId = process.env.BUILD_ID || createBuildId();

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  integrations: [react(), mdx(), buildManifest(buildId)],
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  prefetch: false,
  devToolbar: { enabled: false },
  vite: {
    plugins: [tailwindcss()],
    define: { __BUILD_ID__: JSON.stringify(buildId) },
  },
});
